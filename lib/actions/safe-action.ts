import "server-only";
import { unstable_rethrow } from "next/navigation";
import type { z } from "zod";
import { isAppError, type AppErrorCode } from "@/lib/errors";

/**
 * The wrapper every server action goes through: parse the input with zod, authorize, run, and turn
 * the outcome into a typed result the form renders. lib code throws AppError for refusals the person
 * can act on; those become `{ ok: false, error }` with the message as written. Anything else is a
 * bug: logged here, once, and shown as a plain sentence that leaks nothing.
 */

export type FieldErrors = Record<string, string[]>;
export type ActionFailure = {
  ok: false;
  error: string;
  fieldErrors?: FieldErrors;
  /** Set for refusals lib code raised on purpose, so a client can react (e.g. to CONFLICT). */
  code?: AppErrorCode;
};
export type ActionResult<T extends object = object> = ({ ok: true } & T) | ActionFailure;
/** What `useActionState` holds before the first submission. */
export type ActionState<T extends object = object> = ActionResult<T> | null;

export type ActionName =
  | "run.create"
  | "run.archive"
  | "run.updatePromptTemplate"
  | "round.launch"
  | "round.cancel"
  | "round.retry"
  | "review.close"
  | "review.decide"
  | "connection.create"
  | "connection.delete"
  | "tasks.import"
  | "share.create"
  | "share.revoke";

export type ActionScope = { runId?: number };
/** Who is acting; the auth issue adds the user and role here. */
export type ActionContext = { actor: string | null };

/**
 * The one authorization seam. Today everyone may do everything; the auth issue fills this in
 * (throwing AppError("FORBIDDEN") to refuse) without touching any action.
 */
export async function authorize(
  _action: ActionName,
  _scope: ActionScope = {},
): Promise<ActionContext> {
  return { actor: null };
}

const UNEXPECTED_ERROR =
  "Something went wrong on our side. Please try again; if it keeps happening, the server log has the details.";

/** Form fields arrive as strings; actions called from code may pass a plain object instead. */
export type ActionInput = FormData | Record<string, unknown>;

function toRecord(input: ActionInput | undefined): Record<string, unknown> {
  if (!(input instanceof FormData)) return input ?? {};
  const record: Record<string, unknown> = {};
  for (const [key, value] of input.entries()) {
    // React adds its own $ACTION_… entries to forms bound to server actions.
    if (!key.startsWith("$ACTION")) record[key] = value;
  }
  return record;
}

/** Messages a person can act on, instead of zod's developer-facing defaults. */
const friendlyIssue: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case "invalid_type":
      if (issue.expected === "int") return "Enter a whole number";
      if (issue.expected === "number") return "Enter a number";
      return undefined;
    case "too_small":
      if (issue.origin === "string") {
        return Number(issue.minimum) <= 1 ? "Required" : `At least ${issue.minimum} characters`;
      }
      return issue.inclusive
        ? `Must be at least ${issue.minimum}`
        : `Must be more than ${issue.minimum}`;
    case "too_big":
      if (issue.origin === "string") return `At most ${issue.maximum} characters`;
      return issue.inclusive
        ? `Must be at most ${issue.maximum}`
        : `Must be less than ${issue.maximum}`;
    case "invalid_value":
      return `Choose one of: ${issue.values.map(String).join(", ")}`;
    default:
      return undefined;
  }
};

export type DefineActionOptions<S extends z.ZodType, T extends object> = {
  name: ActionName;
  schema: S;
  /** Reshapes the raw fields before parsing (e.g. form fields into a nested config). */
  prepare?: (raw: Record<string, unknown>) => unknown;
  /** The form field an issue belongs to; by default its path joined with dots. */
  fieldOf?: (path: readonly PropertyKey[]) => string;
  /** What the authorization seam needs to know about the target. */
  scope?: (input: z.output<S>) => ActionScope;
  handler: (input: z.output<S>, ctx: ActionContext) => Promise<T | void>;
};

/**
 * Builds an action usable both with `useActionState` (`(prevState, formData)`; the previous state
 * is ignored) and from code (`(null, { runId })`). Next's redirect() and notFound() pass through.
 */
export function defineAction<S extends z.ZodType, T extends object = object>(
  options: DefineActionOptions<S, T>,
): (prevState: unknown, input?: ActionInput) => Promise<ActionResult<T>> {
  const fieldOf = options.fieldOf ?? ((path) => path.map(String).join("."));
  return async (_prevState, input) => {
    const raw = toRecord(input);
    const parsed = options.schema.safeParse(options.prepare ? options.prepare(raw) : raw, {
      error: friendlyIssue,
    });
    if (!parsed.success) {
      const fieldErrors: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        (fieldErrors[fieldOf(issue.path) || "form"] ??= []).push(issue.message);
      }
      return { ok: false, error: "Some fields need attention.", fieldErrors };
    }
    try {
      const ctx = await authorize(options.name, options.scope?.(parsed.data) ?? {});
      const value = await options.handler(parsed.data, ctx);
      return { ok: true, ...(value ?? {}) } as { ok: true } & T;
    } catch (error) {
      unstable_rethrow(error);
      if (isAppError(error)) return { ok: false, error: error.message, code: error.code };
      console.error(`[action ${options.name}] unexpected error`, error);
      return { ok: false, error: UNEXPECTED_ERROR };
    }
  };
}
