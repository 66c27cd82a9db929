import { describe, expect, it } from "vitest";
import { unifiedDiff } from "../../src/lib/line-diff.js";

const names = { before: "config.json", after: "config.json (new)" };

describe("unifiedDiff", () => {
  it("is empty for equal texts", () => {
    expect(unifiedDiff("a\nb\n", "a\nb\n", names)).toBe("");
  });

  it("shows a changed line with three lines of context and the line numbers of both sides", () => {
    const before = ["1", "2", "3", "4", "5", "6", "7", "8", "9"].join("\n");
    const after = ["1", "2", "3", "4", "five", "6", "7", "8", "9"].join("\n");
    expect(unifiedDiff(before, after, names)).toBe(
      ["--- config.json", "+++ config.json (new)", "@@ -2,7 +2,7 @@", " 2", " 3", " 4", "-5", "+five", " 6", " 7", " 8"].join("\n"),
    );
  });

  it("keeps distant changes in separate hunks and counts added lines", () => {
    const before = Array.from({ length: 20 }, (_, i) => `l${i}`);
    const after = [...before];
    after.splice(1, 0, "new");
    after[18] = "changed";
    const diff = unifiedDiff(before.join("\n"), after.join("\n"), names).split("\n");
    expect(diff.filter((l) => l.startsWith("@@"))).toEqual(["@@ -1,4 +1,5 @@", "@@ -15,6 +16,6 @@"]);
    expect(diff).toContain("+new");
    expect(diff).toContain("-l17");
    expect(diff).toContain("+changed");
  });
});
