import { describe, expect, it } from "vitest";
import { isPlausibleIntId, parseBigIntId, parseGenerationIndex, parseIntId } from "./ids";

describe("URL ids", () => {
  it("accepts plain positive int4 ids and refuses everything else", () => {
    expect(parseIntId("1")).toBe(1);
    expect(parseIntId("2147483647")).toBe(2_147_483_647);
    for (const bad of ["0", "-1", "012", "1e3", "+1", "1.5", "abc", "", "2147483648", " 1"]) {
      expect(parseIntId(bad)).toBeNull();
    }
    expect(isPlausibleIntId(Number.NaN)).toBe(false);
  });

  it("accepts generation 0 but not a negative or padded index", () => {
    expect(parseGenerationIndex("0")).toBe(0);
    expect(parseGenerationIndex("3")).toBe(3);
    expect(parseGenerationIndex("-1")).toBeNull();
    expect(parseGenerationIndex("00")).toBeNull();
  });

  it("keeps int8 ids as strings and refuses overflow", () => {
    expect(parseBigIntId("9223372036854775807")).toBe("9223372036854775807");
    expect(parseBigIntId("9223372036854775808")).toBeNull();
    expect(parseBigIntId("99999999999999999999")).toBeNull();
    expect(parseBigIntId("0")).toBeNull();
  });
});
