import { describe, expect, it } from "vitest";
import { isBlank } from "../../src/lib/blank.js";

describe("isBlank", () => {
  it("says what trim() === '' says, for every kind of white space and for text", () => {
    const samples = ["", " ", "\t\n\r", "\uFEFF", "\u00A0", "\u2028\u2029", "\u3000", "\u200B", " a ", "/tv/Show", "\u00A0x"];
    expect(samples.map(isBlank)).toEqual(samples.map((s) => s.trim() === ""));
    expect(samples.filter(isBlank)).toEqual(["", " ", "\t\n\r", "\uFEFF", "\u00A0", "\u2028\u2029", "\u3000"]);
  });
});
