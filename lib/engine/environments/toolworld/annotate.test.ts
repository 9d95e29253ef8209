import { describe, expect, it } from "vitest";
import { annotateInstruction } from "./annotate";

const names = new Set(["Maya Chen", "Leo Park"]);

describe("annotateInstruction", () => {
  it("types entities and tags each with the content word before it", () => {
    const a = annotateInstruction(
      "Move all March pdf files from Downloads and Work to Archive.",
      names,
    );
    expect(a.mentions).toEqual([
      { type: "MONTH", value: "March", tag: "move" },
      { type: "EXT", value: "pdf", tag: "move" },
      { type: "FOLDER", value: "Downloads", tag: "from" },
      { type: "FOLDER", value: "Work", tag: "from" },
      { type: "FOLDER", value: "Archive", tag: "to" },
    ]);
    expect(a.words).toEqual(["move", "<MONTH>", "<EXT>", "from", "<FOLDER>", "to"]);
  });

  it("reads names, quotes, amounts, dates and exceptions", () => {
    const a = annotateInstruction(
      "Send everyone in Lisbon except Maya Chen a message saying 'See you at 5'.",
      names,
    );
    expect(a.mentions).toEqual([
      { type: "CITY", value: "Lisbon", tag: "in" },
      { type: "NAME", value: "Maya Chen", tag: "except" },
      { type: "QUOTE", value: "See you at 5", tag: "saying" },
    ]);
    const b = annotateInstruction(
      "Send Leo Park the phone of Maya Chen, then pay $25 on 2026-03-04.",
      names,
    );
    expect(b.mentions.map((m) => `${m.type}:${m.tag}`)).toEqual([
      "NAME:send",
      "NAME:of",
      "AMOUNT:pay",
      "DATE:on",
    ]);
  });
});
