import { describe, expect, it } from "vitest";
import { parseATrain } from "../../src/triggers/a-train.js";

const folders = (body: unknown) => {
  const result = parseATrain(body);
  return result.kind === "scan" ? result.paths.map((p) => p.path) : result;
};

// autoscan decodes A-Train's body with Go's encoding/json: each key picks the field of its exact
// name, else the one equal ignoring case; a later key for the same field replaces an earlier one.
describe("A-Train's keys, read as Go's decoder reads them", () => {
  it("takes a key in any case", () => {
    expect(folders({ cReAtEd: ["/tv/A"], DELETED: ["/tv/B"] })).toEqual(["/tv/A", "/tv/B"]);
  });

  it("lets the later of two spellings of one key count, as Go overwrites the field", () => {
    expect(folders({ created: ["/tv/First"], Created: ["/tv/Second"] })).toEqual(["/tv/Second"]);
  });

  it("names the key as sent when its value is wrong", () => {
    expect(parseATrain({ Created: "/tv/A" })).toEqual({ kind: "invalid", reason: "a-train: Created must be an array of folder paths" });
  });
});
