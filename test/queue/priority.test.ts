import { describe, expect, it } from "vitest";
import { separatorOf } from "../../src/queue/folder-key.js";
import { createPriorityOf } from "../../src/queue/priority.js";

describe("SERVER_SCAN_PRIORITIES", () => {
  const priorityOf = createPriorityOf({ "2": ["/TV/"], "1": ["/movies/", "\\Films\\"] }, separatorOf);

  it("matches patterns as case-insensitive substrings, as plex_autoscan did", () => {
    expect(priorityOf("/data/Movies/Film (2000)")).toBe(1);
    expect(priorityOf("/data/tv/Show/Season 1")).toBe(2);
    expect(priorityOf("D:\\Media\\Films\\Film")).toBe(1);
  });

  it("lets a pattern ending in a separator match the folder itself", () => {
    expect(priorityOf("/data/Movies")).toBe(1);
  });

  it("gives unmatched folders priority 0, which is served first", () => {
    expect(priorityOf("/data/Music/Album")).toBe(0);
  });

  it("refuses a key that is not an integer", () => {
    expect(() => createPriorityOf({ high: ["/TV/"] }, separatorOf)).toThrow(/"high" is not an integer/);
  });
});
