import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseScanRequest, type TriggerResult } from "../../src/triggers/index.js";
import { listFixtureFiles, loadFixture, webhookFixtures } from "./helpers.js";

const SOURCES = ["sonarr", "radarr", "lidarr", "readarr", "manual"];
const EVENTS = [
  "Test",
  "Manual",
  "Download",
  "Rename",
  "SeriesDelete",
  "EpisodeFileDelete",
  "MovieDelete",
  "MovieFileDelete",
  "ArtistDelete",
  "AlbumDelete",
  "Retag",
  "AuthorDelete",
  "BookDelete",
  "BookFileDelete",
  "Grab",
  "Health",
];
const KEYS = [
  "series",
  "movie",
  "artist",
  "author",
  "path",
  "folderPath",
  "relativePath",
  "previousPath",
  "previousRelativePath",
  "episodeFile",
  "episodeFiles",
  "movieFile",
  "trackFiles",
  "trackFile",
  "bookFiles",
  "bookFile",
  "deletedFiles",
  "renamedEpisodeFiles",
  "renamedMovieFiles",
  "renamedTrackFiles",
  "renamedBookFiles",
  "filepath",
  "eventType",
  "__proto__",
  "constructor",
];

/** What every result must satisfy, whatever the input. */
function expectWellFormed(result: TriggerResult): void {
  expect(["scan", "test", "ignored", "invalid"]).toContain(result.kind);
  if (result.kind === "invalid" || result.kind === "ignored") expect(result.reason).not.toBe("");
  if (result.kind !== "scan") return;
  expect(SOURCES).toContain(result.source);
  expect(result.paths.length).toBeGreaterThan(0);
  for (const requested of result.paths) {
    expect(typeof requested.path).toBe("string");
    expect(requested.path.trim()).not.toBe("");
    // biome-ignore lint/suspicious/noControlCharactersInRegex: no control character may reach a scan.
    expect(requested.path).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(["file", "folder", "unknown"]).toContain(requested.kind);
  }
}

/** Objects built from the keys the parser reads, so generated bodies reach deep branches. */
const payloadish = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.jsonValue({ maxDepth: 1 }),
    fc.string({ unit: "binary" }),
    fc.constantFrom("/tv/Show", "D:\\TV\\Show", "Season 1/a.mkv", "", " ", "/tv/a\0b"),
    fc.array(tie("object"), { maxLength: 3 }),
    tie("object"),
  ),
  object: fc.dictionary(fc.constantFrom(...KEYS), tie("value"), { maxKeys: 5 }),
}));

const withEvent = fc
  .tuple(payloadish.object, fc.oneof(fc.constantFrom(...EVENTS), fc.string()))
  .map(([body, eventType]) => ({ ...(body as object), eventType }));

/** Replaces or deletes one node somewhere in a payload tree. */
function mutate(payload: unknown, pick: number, replacement: unknown, remove: boolean): unknown {
  const copy = structuredClone(payload);
  const slots: Array<[Record<string, unknown> | unknown[], string | number]> = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node))
      node.forEach((child, index) => {
        slots.push([node, index]);
        walk(child);
      });
    else if (typeof node === "object" && node !== null) {
      for (const [key, child] of Object.entries(node)) {
        slots.push([node as Record<string, unknown>, key]);
        walk(child);
      }
    }
  };
  walk(copy);
  const slot = slots[pick % Math.max(slots.length, 1)];
  if (slot === undefined) return replacement;
  const [parent, key] = slot;
  if (remove && !Array.isArray(parent)) delete parent[key as string];
  else (parent as Record<string | number, unknown>)[key] = replacement;
  return copy;
}

describe("parseScanRequest under generated input", () => {
  it("never throws on arbitrary JSON values and always returns a well-formed result", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (body) => expectWellFormed(parseScanRequest(body))),
      { numRuns: 2000 },
    );
  });

  it("never throws on arbitrary JavaScript values (form records, odd prototypes)", () => {
    fc.assert(
      fc.property(fc.anything(), (body) => expectWellFormed(parseScanRequest(body))),
      { numRuns: 1000 },
    );
  });

  it("never throws on payload-shaped bodies with real event names and hostile paths", () => {
    fc.assert(
      fc.property(withEvent, (body) => expectWellFormed(parseScanRequest(body))),
      { numRuns: 3000 },
    );
  });

  it("reaches both scans and refusals with that generator (a fixed sample, so the guard never depends on luck)", () => {
    // Guards against a generator that never gets past the first checks; scans are rare (a few in
    // 3,000), so a random run could miss them: this sample is the same every time.
    const kinds = new Map<string, number>();
    for (const body of fc.sample(withEvent, { seed: 20261125, numRuns: 3000 })) {
      const kind = parseScanRequest(body).kind;
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
    expect(kinds.get("scan") ?? 0).toBeGreaterThan(0);
    expect(kinds.get("invalid") ?? 0).toBeGreaterThan(0);
  });

  it.skipIf(!webhookFixtures.run)("never throws on real fixture payloads with one field replaced or removed", () => {
    const fixtures = listFixtureFiles().map(loadFixture);
    const mutation = fc.record({
      index: fc.nat(),
      pick: fc.nat(),
      replacement: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom("", "\0", "/a\0b", null)),
      remove: fc.boolean(),
    });
    let scans = 0;
    fc.assert(
      fc.property(mutation, ({ index, pick, replacement, remove }) => {
        const payload = mutate(fixtures[index % fixtures.length], pick, replacement, remove);
        const result = parseScanRequest(payload);
        expectWellFormed(result);
        if (result.kind === "scan") scans += 1;
      }),
      { numRuns: 5000 },
    );
    expect(scans).toBeGreaterThan(0);
  });
});
