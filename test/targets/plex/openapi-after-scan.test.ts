import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakePlex, type FakePlex } from "../../fakes/plex.js";
import { sharedFixture } from "../../helpers/shared-fixtures.js";
import { at, items, scalar, type Block } from "./yaml-blocks.js";

// In CI a missing fixture fails these tests instead of skipping them.
const specFixture = sharedFixture("plex/plex-api-spec.yaml", "the after-scan OpenAPI contract test");

describe.runIf(specFixture.run)("Plex OpenAPI contract for the after-scan calls", () => {
  let spec: Block;
  const need = (block: Block | undefined, what: string): Block => {
    if (!block) throw new Error(`the spec has no ${what}`);
    return block;
  };
  const required = (schema: string): string[] =>
    items(need(at(spec, "components", "schemas", schema, "required"), `${schema} required`)).map((i) => i[0]?.trim() ?? "");

  beforeAll(() => {
    spec = readFileSync(specFixture.file(), "utf8").split("\n");
  });

  it.each([
    ["/library/metadata/{ids}/analyze", "ids"],
    ["/library/metadata/{ids}/refresh", "ids"],
    ["/library/sections/{sectionId}/emptyTrash", "sectionId"],
  ])("declares %s as an admin-only PUT, which the client sends and the fake refuses to a shared user", (route, param) => {
    const operation = need(at(spec, "paths", route, "put"), `PUT ${route}`);
    expect(need(at(operation, "security"), "security").join("\n")).toContain("- admin");
    expect(need(at(operation, "parameters"), "parameters").join("\n")).toContain(`name: ${param}`);
    expect(at(spec, "paths", route, "get")).toBeUndefined();
  });

  it("declares refreshing on LibrarySection as a boolean (the client also reads 0/1)", () => {
    const refreshing = need(at(spec, "components", "schemas", "LibrarySection", "properties", "refreshing"), "refreshing");
    expect(scalar(refreshing, "type")).toBe("boolean");
  });

  it("pages the section listing with X-Plex-Container-Start/Size in the query, and the container carries totalSize", () => {
    const list = need(at(spec, "paths", "/library/sections/{sectionId}/all", "get", "parameters"), "listContent parameters").join("\n");
    expect(list).toContain("X-Plex-Container-Start");
    expect(list).toContain("X-Plex-Container-Size");
    const start = need(at(spec, "components", "parameters", "X-Plex-Container-Start"), "paging parameter");
    expect(scalar(start, "in")).toBe("query");
    expect(at(spec, "components", "schemas", "MediaContainer", "properties", "totalSize")).toBeDefined();
  });

  describe("the fake's items", () => {
    let plex: FakePlex;
    let entry: Record<string, unknown>;

    beforeAll(async () => {
      plex = await startFakePlex();
      plex.addItem("/data/TV-Shows/Show/Season 1/E01.mkv");
      const response = await fetch(`${plex.url}/library/sections/2/all`, {
        headers: { "X-Plex-Token": plex.token, Accept: "application/json" },
      });
      const body = (await response.json()) as { MediaContainer: { Metadata: Array<Record<string, unknown>> } };
      entry = body.MediaContainer.Metadata[0] ?? {};
    });

    afterAll(async () => {
      await plex.close();
    });

    it("carry every field Metadata and Part require, and the Part's file", () => {
      for (const name of required("Metadata")) expect(entry).toHaveProperty(name);
      const part = ((entry.Media as Array<{ Part: Array<Record<string, unknown>> }>)[0]?.Part ?? [])[0] ?? {};
      for (const name of required("Part")) expect(part).toHaveProperty(name);
      expect(part.file).toBe("/data/TV-Shows/Show/Season 1/E01.mkv");
      expect(at(spec, "components", "schemas", "Part", "properties", "file")).toBeDefined();
    });
  });
});
