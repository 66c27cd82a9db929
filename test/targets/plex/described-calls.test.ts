import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TargetAuthError } from "../../../src/domain.js";
import { PlexTvClient } from "../../../src/plex-tv/client.js";
import { PlexApiClient } from "../../../src/targets/plex/api.js";
import { startFakePlex, type FakePlex } from "../../fakes/plex.js";
import { accountResources, startFakePlexTv } from "../../fakes/plex-tv.js";
import { applyGaps } from "../../fakes/spec-gaps.js";
import { descriptionsAvailable, loadDescription, type Description } from "../../fakes/spec/descriptions.js";
import { takeCheckedOperations } from "../../fakes/spec/exchange.js";

type Call = (api: PlexApiClient, ratingKey: string) => Promise<unknown>;

/**
 * Every call scanarr makes to Plex, with the operation of plex-api-spec.yaml
 * (or of spec-gaps.ts) it is checked against, and whether the description
 * reserves it to the server's admin.
 */
const PLEX_CALLS: Array<[operationId: string, admin: boolean, call: Call]> = [
  ["getIdentity", false, (api) => api.identity()],
  ["getTasks", true, (api) => api.checkAdmin()],
  ["getSectionsByOlderPath", false, (api) => api.listSections()],
  ["refreshSectionByGet", true, (api) => api.refresh("2", "/data/TV-Shows/Show")],
  ["getFolderView", false, async (api) => api.listFolder("2", (await api.listFolder("2")).folders[0]?.key)],
  ["analyzeMetadata", true, (api, ratingKey) => api.analyzeItem(ratingKey)],
  ["refreshItemsMetadata", true, (api, ratingKey) => api.refreshItem(ratingKey)],
  ["listContent", false, (api) => api.countTrash("2", "show")],
  ["emptyTrash", true, (api) => api.emptyTrash("2")],
];

describe.runIf(descriptionsAvailable("plex"))("the calls scanarr makes to Plex and plex.tv, held to plex-api-spec.yaml", () => {
  let plex: FakePlex;
  let ratingKey: string;
  let description: Description;

  beforeAll(async () => {
    plex = await startFakePlex();
    ratingKey = plex.addItem("/data/TV-Shows/Show/Season 1/E01.mkv").ratingKey;
    description = applyGaps("plex", await loadDescription("plex"));
  });

  afterAll(async () => {
    await plex.close();
  });

  it("are each an operation of the description, answered by the fake as the description allows", async () => {
    takeCheckedOperations();
    const api = new PlexApiClient({ baseUrl: plex.url, token: plex.token });
    for (const [, , call] of PLEX_CALLS) await call(api, ratingKey);
    expect(takeCheckedOperations()).toEqual(PLEX_CALLS.map(([id]) => `plex ${id}`).sort());
  });

  it.each(PLEX_CALLS)(
    "%s: a shared user's token is refused there exactly when the description reserves it to the admin",
    async (id, admin, call) => {
      const scopes = scopesOf(description, id);
      expect(scopes.includes("admin") && !scopes.includes("shared user")).toBe(admin);
      const shared = call(new PlexApiClient({ baseUrl: plex.url, token: plex.sharedToken }), ratingKey);
      if (admin) await expect(shared).rejects.toBeInstanceOf(TargetAuthError);
      else await expect(shared).resolves.not.toThrow();
    },
  );

  it("list items as listContent's answer describes them (what Metadata and Part require), each with its Part's file", async () => {
    // The folder view lists items the same way (plex-render.ts itemFields), but the description has no folder view to check it by.
    takeCheckedOperations();
    const response = await fetch(`${plex.url}/library/sections/2/all`, {
      headers: { "X-Plex-Token": plex.token, Accept: "application/json" },
    });
    const body = (await response.json()) as { MediaContainer: { Metadata: Array<{ Media: Array<{ Part: Array<{ file: string }> }> }> } };
    expect(body.MediaContainer.Metadata[0]?.Media[0]?.Part[0]?.file).toBe("/data/TV-Shows/Show/Season 1/E01.mkv");
    expect(takeCheckedOperations()).toEqual(["plex listContent"]);
  });

  it("reach plex.tv's PIN sign-in and resources list through operations of the description", async () => {
    const tv = await startFakePlexTv({ resources: accountResources(plex, "http://127.0.0.1:9"), signInAfterPolls: 1 });
    try {
      takeCheckedOperations();
      const client = new PlexTvClient({ baseUrl: tv.url, clientId: "scanarr-test-client", version: "0.1.0" });
      const pin = await client.createPin();
      expect((await client.readPin(pin.id))?.authToken).toBe(tv.accountToken);
      expect((await client.listResources(tv.accountToken)).map((r) => r.name)).toContain("home");
      expect(takeCheckedOperations()).toEqual(["plex-tv checkPin", "plex-tv createPin", "plex-tv get-server-resources"]);
    } finally {
      await tv.close();
    }
  });

  it.each([
    ["getSections", "MediaContainer.Directory.key", "string"],
    ["getSections", "MediaContainer.Directory.title", "string"],
    ["getSections", "MediaContainer.Directory.type", "string"],
    ["getSections", "MediaContainer.Directory.refreshing", "boolean"],
    ["getSections", "MediaContainer.Directory.Location.path", "string"],
    ["getIdentity", "MediaContainer.machineIdentifier", "string"],
    ["getIdentity", "MediaContainer.version", "string"],
    ["getIdentity", "MediaContainer.claimed", "boolean"],
    ["listContent", "MediaContainer.totalSize", "integer"],
    ["listContent", "MediaContainer.Metadata.ratingKey", "string"],
    ["listContent", "MediaContainer.Metadata.parentRatingKey", "string"],
    ["listContent", "MediaContainer.Metadata.deletedAt", "integer"],
    ["listContent", "MediaContainer.Metadata.Media.Part.file", "string"],
    ["listContent", "MediaContainer.Metadata.Media.Part.deletedAt", "integer"],
    ["get-server-resources", "clientIdentifier", "string"],
    ["get-server-resources", "owned", "boolean"],
    ["get-server-resources", "accessToken", "string"],
    ["get-server-resources", "connections.uri", "string"],
    ["get-server-resources", "connections.relay", "boolean"],
  ])("declare %s's %s, which the client reads, as a %s", (id, field, type) => {
    const answer = operationOf(description, id).responses as Record<string, { content?: Record<string, { schema: unknown }> }>;
    expect(typeAt(description, answer["200"]?.content?.["application/json"]?.schema, field.split("."))).toBe(type);
  });
});

function operationOf(description: Description, operationId: string): Record<string, unknown> {
  for (const item of Object.values(description.paths))
    for (const operation of Object.values(item) as Array<Record<string, unknown>>)
      if (operation?.operationId === operationId) return operation;
  throw new Error(`the description has no operation ${operationId}`);
}

/** Every scope the operation's security requirements name (its own or the document's): "admin", "shared user". */
function scopesOf(description: Description, operationId: string): string[] {
  const requirements = (operationOf(description, operationId).security ?? description.security ?? []) as Array<Record<string, string[]>>;
  return requirements.flatMap((requirement) => Object.values(requirement).flat());
}

/** The declared type of a field below `schema`, through `$ref`, `allOf` and arrays; undefined when it is not declared. */
function typeAt(description: Description, schema: unknown, path: readonly string[]): unknown {
  const node = resolve(description, schema);
  if (!node) return undefined;
  if (node.items) return typeAt(description, node.items, path);
  const [name, ...rest] = path;
  if (name === undefined) return node.type;
  const properties = node.properties as Record<string, unknown> | undefined;
  if (properties?.[name] !== undefined) return typeAt(description, properties[name], rest);
  for (const part of (node.allOf ?? []) as unknown[]) {
    const found = typeAt(description, part, path);
    if (found !== undefined) return found;
  }
  return undefined;
}

function resolve(description: Description, schema: unknown): Record<string, unknown> | undefined {
  let node = schema as Record<string, unknown> | undefined;
  while (typeof node?.$ref === "string")
    node = node.$ref
      .slice(2)
      .split("/")
      .reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], description) as Record<string, unknown> | undefined;
  return node;
}
