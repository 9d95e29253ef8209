import type { Json, JsonObject } from "./types";

/**
 * The subset of JSON Schema our tool parameters use (object/string/number/integer, required,
 * additionalProperties, minLength, pattern, minimum/exclusiveMinimum, enum). Hand-written so the
 * engine stays dependency-free and can check arbitrary calls from an LLM agent.
 */
const patterns = new Map<string, RegExp>();

function compilePattern(pattern: string): RegExp {
  let re = patterns.get(pattern);
  if (!re) {
    re = new RegExp(pattern);
    patterns.set(pattern, re);
  }
  return re;
}

export function validateJsonSchema(schema: JsonObject, value: Json, path = "arguments"): string[] {
  const errors: string[] = [];
  const type = schema.type;
  if (type === "object") {
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      return [`${path} must be an object`];
    }
    const properties = (schema.properties ?? {}) as Record<string, JsonObject>;
    const required = (schema.required ?? []) as string[];
    for (const key of required) {
      if (!(key in value)) errors.push(`${path}.${key} is required`);
    }
    for (const [key, child] of Object.entries(value)) {
      const childSchema = properties[key];
      if (!childSchema) {
        if (schema.additionalProperties === false) errors.push(`${path}.${key} is not allowed`);
        continue;
      }
      errors.push(...validateJsonSchema(childSchema, child, `${path}.${key}`));
    }
    return errors;
  }
  if (type === "string") {
    if (typeof value !== "string") return [`${path} must be a string`];
    if (typeof schema.minLength === "number" && value.length < schema.minLength) {
      errors.push(`${path} must have at least ${schema.minLength} characters`);
    }
    if (typeof schema.pattern === "string" && !compilePattern(schema.pattern).test(value)) {
      errors.push(`${path} must match ${schema.pattern}`);
    }
  } else if (type === "number" || type === "integer") {
    if (typeof value !== "number" || !Number.isFinite(value)) return [`${path} must be a number`];
    if (type === "integer" && !Number.isInteger(value)) errors.push(`${path} must be an integer`);
    if (typeof schema.minimum === "number" && value < schema.minimum) {
      errors.push(`${path} must be ≥ ${schema.minimum}`);
    }
    if (typeof schema.exclusiveMinimum === "number" && value <= schema.exclusiveMinimum) {
      errors.push(`${path} must be > ${schema.exclusiveMinimum}`);
    }
  } else if (type === "boolean") {
    if (typeof value !== "boolean") return [`${path} must be a boolean`];
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) {
    errors.push(`${path} must be one of ${schema.enum.join(", ")}`);
  }
  return errors;
}
