import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PlexApiClient } from "../../../src/targets/plex/api.js";
import { startFakePlex, type FakePlex } from "../../fakes/plex.js";
import { sharedFixture } from "../../helpers/shared-fixtures.js";
import { at, items, scalar, type Block } from "./yaml-blocks.js";

const specFixture = sharedFixture("plex/plex-api-spec.yaml", "the Plex OpenAPI contract test");

/** Spec properties the real server sends with another type (apis.md §1.3: `hidden` is an int 0/1/2). */
const KNOWN_SPEC_MISMATCHES = new Set(["hidden"]);

describe.skipIf(!specFixture.run)("Plex OpenAPI contract (LukeHagar/plex-api-spec)", () => {
  let spec: Block;
  const need = (block: Block | undefined, what: string): Block => {
    if (!block) throw new Error(`the spec has no ${what}`);
    return block;
  };
  const schema = (name: string): Block => need(at(spec, "components", "schemas", name), `schema ${name}`);

  beforeAll(() => {
    spec = readFileSync(specFixture.file(), "utf8").split("\n");
  });

  it("declares the token as the X-Plex-Token header, which is where the client puts it", () => {
    const token = need(at(spec, "components", "securitySchemes", "token"), "token scheme");
    expect([scalar(token, "type"), scalar(token, "in"), scalar(token, "name")]).toEqual(["apiKey", "header", "X-Plex-Token"]);
  });

  it("has the section refresh the client calls, with sectionId in the path and a string `path` query parameter", () => {
    // The spec lists POST; PMS ≥ 1.32.7 answers 404 to POST/PUT there and everyone uses GET (apis.md §1.2).
    const refresh = need(at(spec, "paths", "/library/sections/{sectionId}/refresh", "post"), "refresh operation");
    const parameters = items(need(at(refresh, "parameters"), "refresh parameters"));
    const byName = new Map(parameters.map((p) => [scalar(p, "name"), p]));
    const sectionId = need(byName.get("sectionId"), "sectionId parameter");
    const pathParameter = need(byName.get("path"), "path parameter");
    expect(scalar(sectionId, "in")).toBe("path");
    expect([scalar(pathParameter, "in"), scalar(need(at(pathParameter, "schema"), "schema"), "type")]).toEqual(["query", "string"]);
    // Admin only: a shared user's token gets 403, which the client reports as an auth problem.
    expect(need(at(refresh, "security"), "security").join("\n")).toContain("- admin");
  });

  it("describes the section list as MediaContainer.Directory[] of LibrarySection with Location[].path", () => {
    const list = need(at(spec, "paths", "/library/sections/all", "get", "responses", "200"), "section list response");
    const container = need(at(list, "content", "application/json", "schema", "properties", "MediaContainer"), "container");
    expect(container.join("\n")).toMatch(/Directory:\s+items:\s+\$ref: '#\/components\/schemas\/LibrarySection'/);
    const section = need(at(schema("LibrarySection"), "properties"), "LibrarySection properties");
    expect(scalar(schema("Key"), "type")).toBe("string");
    expect(scalar(need(at(section, "title"), "title"), "type")).toBe("string");
    const location = need(at(section, "Location", "items", "properties"), "Location properties");
    expect(at(location, "path")).toBeDefined();
    expect(scalar(need(at(location, "id"), "id"), "type")).toBe("integer");
  });

  it("leaves /identity unauthenticated and gives it claimed, machineIdentifier and version", () => {
    const identity = need(at(spec, "paths", "/identity", "get"), "identity operation");
    expect(need(at(identity, "security"), "security").map((l) => l.trim())).toEqual(["- {}"]);
    const fields = need(
      at(identity, "responses", "200", "content", "application/json", "schema", "properties", "MediaContainer", "properties"),
      "fields",
    );
    for (const name of ["claimed", "machineIdentifier", "version"]) expect(at(fields, name)).toBeDefined();
  });

  describe("the fake Plex's section list", () => {
    let plex: FakePlex;
    let directories: Array<Record<string, unknown>>;

    beforeAll(async () => {
      plex = await startFakePlex();
      const response = await fetch(`${plex.url}/library/sections`, {
        headers: { "X-Plex-Token": plex.token, Accept: "application/json" },
      });
      const body = (await response.json()) as { MediaContainer: { Directory: Array<Record<string, unknown>> } };
      directories = body.MediaContainer.Directory;
    });

    afterAll(async () => {
      await plex.close();
    });

    it("carries every field LibrarySection requires, with the type the spec gives it", () => {
      const librarySection = schema("LibrarySection");
      const required = items(need(at(librarySection, "required"), "required list")).map((i) => i[0]?.trim());
      const properties = need(at(librarySection, "properties"), "properties");
      const typeEnum = items(need(at(schema("MediaTypeString"), "enum"), "enum")).map((i) => i[0]?.trim());
      for (const directory of directories) {
        for (const name of required) expect(directory).toHaveProperty(name ?? "");
        expect(typeEnum).toContain(directory.type);
        for (const [name, value] of Object.entries(directory)) {
          const declared = at(properties, name);
          const type = declared && scalar(declared, "type");
          if (!type || KNOWN_SPEC_MISMATCHES.has(name) || type === "array") continue;
          expect({ name, type: type === "integer" ? "number" : typeof value }).toEqual({
            name,
            type: type === "integer" ? "number" : type,
          });
        }
      }
    });

    it("is read back by the client into the same libraries", async () => {
      const libraries = await new PlexApiClient({ baseUrl: plex.url, token: plex.token }).listLibraries();
      expect(libraries.map((l) => [l.id, l.locations])).toEqual(
        directories.map((d) => [d.key, (d.Location as Array<{ path: string }>).map((l) => l.path)]),
      );
    });
  });
});
