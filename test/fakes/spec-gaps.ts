import type { DescribedServer, Description } from "./spec/descriptions.js";

/**
 * Where a vendor's API description is silent or wrong about what the real
 * server does, and the fakes (and scanarr) follow the server. Each gap is a
 * small patch applied to the description before the fakes are checked
 * against it, with the reason; nothing else is relaxed.
 */
export interface SpecGap {
  server: DescribedServer;
  /** The operation or detail, e.g. "GET /library/sections/{sectionId}/refresh". */
  what: string;
  /** One line: how the real server behaves and where that is known from. */
  why: string;
  /** None when the fake simply goes unchecked there: the calls lie outside the description. */
  patch?(description: Description): void;
}

type Operation = Record<string, unknown> & { parameters?: unknown[]; responses?: Record<string, unknown> };

function operation(description: Description, path: string, method: string): Operation {
  const found = description.paths[path]?.[method];
  if (!found) throw new Error(`spec-gaps: the description has no ${method.toUpperCase()} ${path} any more; review this gap`);
  return found as Operation;
}

function schemaOf(description: Description, name: string): { properties: Record<string, unknown> } {
  const schema = (description.components as { schemas: Record<string, { properties?: Record<string, unknown> }> }).schemas[name];
  if (!schema?.properties) throw new Error(`spec-gaps: the description has no schema ${name} any more; review this gap`);
  return schema as { properties: Record<string, unknown> };
}

/** The same operation under another method or path, as the server also serves it. */
function alias(from: [path: string, method: string], to: [path: string, method: string], operationId: string): (d: Description) => void {
  return (description) => {
    const [path, method] = to;
    description.paths[path] ??= {};
    (description.paths[path] as Record<string, unknown>)[method] = { ...operation(description, ...from), operationId };
  };
}

/** An operation the description leaves out, with only its method, path and parameters known. */
function add(path: string, method: string, spec: Operation): (d: Description) => void {
  return (description) => {
    description.paths[path] ??= {};
    (description.paths[path] as Record<string, unknown>)[method] = spec;
  };
}

const pathParameter = (name: string, type = "string") => ({ name, in: "path", required: true, schema: { type } });
const queryParameter = (name: string, type = "string") => ({ name, in: "query", schema: { type } });
const plexToken = [{ token: [] }];

export const SPEC_GAPS: readonly SpecGap[] = [
  {
    server: "plex",
    what: "X-Plex-Client-Identifier (and the other X-Plex-* client headers) on PMS calls",
    why: "the description requires it on most operations; PMS answers token-authenticated calls without it (autoscan and autopulse send only the token and Accept, apis.md §1.1)",
    patch: optionalHeaders(["X-Plex-Client-Identifier"]),
  },
  {
    server: "plex",
    what: "X-Plex-Token in the query string",
    why: "the description declares the header only; PMS also takes ?X-Plex-Token= (Plex's own URL Commands article, apis.md §1.1)",
    patch: alsoKey("tokenInQuery", "query", "X-Plex-Token"),
  },
  {
    server: "plex",
    what: "trash=1 and type=N on GET /library/sections/{sectionId}/all",
    why: "the description's mediaQuery is a form-exploded object of filter fields, which a validator reads as one parameter; PMS filters by its fields (trash, type) given as plain query parameters",
    patch: (description) => {
      operation(description, "/library/sections/{sectionId}/all", "get").parameters?.push(
        queryParameter("trash", "integer"),
        queryParameter("type", "integer"),
      );
    },
  },
  {
    server: "jellyfin",
    what: "POST /Library/ScanPath",
    why: "the targeted-scans plugin's route (not Jellyfin's own): answered 404 without the plugin, as the fake does when it is off",
    patch: add("/Library/ScanPath", "post", {
      operationId: "pluginScanPath",
      parameters: [],
      requestBody: { content: { "application/json": { schema: { type: "object" } } } },
      responses: { default: { description: "the plugin's status" } },
      security: [{ CustomAuthentication: [] }],
    }),
  },
  {
    server: "jellyfin",
    what: "the legacy credentials (X-Emby-Token, X-MediaBrowser-Token, X-Emby-Authorization, ?api_key=, ?ApiKey=)",
    why: "the SDK sends only Authorization; Jellyfin reads these too (?ApiKey= always, the rest while EnableLegacyAuthorization is on: 10.11's default, apis.md §4.1)",
    patch: (description) => {
      alsoKey("legacyEmbyToken", "header", "X-Emby-Token")(description);
      alsoKey("legacyMediaBrowserToken", "header", "X-MediaBrowser-Token")(description);
      alsoKey("legacyEmbyAuthorization", "header", "X-Emby-Authorization")(description);
      alsoKey("legacyApiKeyQuery", "query", "api_key")(description);
      alsoKey("apiKeyQuery", "query", "ApiKey")(description);
    },
  },
  ...(["sonarr", "radarr"] as const).map(
    (server): SpecGap => ({
      server,
      what: "POST /api/v3/command: the command's own fields (seriesId, movieIds) and the 201 answer",
      why: "commands are polymorphic: the description's CommandResource lists the common fields only, and the app answers 201 Created with the queued command (round3.md §3)",
      patch: (description) => {
        const command = operation(description, "/api/v3/command", "post");
        const content = (command.requestBody as { content: Record<string, { schema: Record<string, unknown> }> }).content;
        for (const media of Object.values(content))
          media.schema = { type: "object", required: ["name"], properties: { name: { type: "string" } } };
        (command.responses ??= {})["201"] = { description: "the queued command, with its own fields" };
      },
    }),
  ),
  ...(["sonarr", "radarr", "lidarr", "readarr"] as const).map(
    (server): SpecGap => ({
      server,
      what: "POST /notification answered 201, PUT /notification/{id} answered 202",
      why: "the generated description lists 200 only; the apps' REST controllers answer Created and Accepted (round3.md §3)",
      patch: (description) => {
        const root = server === "sonarr" || server === "radarr" ? "/api/v3" : "/api/v1";
        (operation(description, `${root}/notification`, "post").responses ??= {})["201"] = { description: "Created" };
        (operation(description, `${root}/notification/{id}`, "put").responses ??= {})["202"] = { description: "Accepted" };
      },
    }),
  ),
  ...(["lidarr", "readarr"] as const).map(
    (server): SpecGap => ({
      server,
      what: "GET /api/v3/system/status (answered 404)",
      why: "not an operation of this app: scanarr's app recognition asks /api/v3 first and reads the 404 as 'the /api/v1 apps' (arr/client.ts)",
      patch: add("/api/v3/system/status", "get", {
        operationId: "notHereProbe",
        parameters: [],
        responses: { "404": { description: "Not Found" } },
      }),
    }),
  ),
  {
    server: "emby",
    what: "the X-Emby-Token header",
    why: "the description's apikeyauth scheme names only the api_key query parameter, and says in its text that the key may travel in the X-Emby-Token header instead",
    patch: alsoKey("embyTokenHeader", "header", "X-Emby-Token"),
  },
  {
    server: "plex",
    what: "LibrarySection.hidden",
    why: "the description types it boolean; PMS sends an integer 0, 1 or 2 (apis.md §1.3)",
    patch: (description) => {
      const section = schemaOf(description, "LibrarySection");
      if (!section.properties.hidden) throw new Error("spec-gaps: LibrarySection.hidden is gone; review this gap");
      section.properties.hidden = { type: ["integer", "boolean"] };
    },
  },
  {
    server: "plex",
    what: "LibrarySection.Location[].path",
    why: "the description gives it no type; PMS sends each folder of the section as a string (apis.md §1.3), which is what scanarr reads",
    patch: (description) => {
      const location = schemaOf(description, "LibrarySection").properties.Location as { items: { properties: Record<string, unknown> } };
      location.items.properties.path = { type: "string" };
    },
  },
  {
    server: "plex",
    what: "deletedAt on Metadata and Part",
    why: "the description leaves it out (both schemas allow more fields); PMS marks an item or part it holds as missing, until the trash is emptied, with deletedAt in epoch seconds, the listing's form of the library's deleted_at (apis.md §3.2), which scanarr reads to count a trashed file as absent",
    patch: (description) => {
      for (const name of ["Metadata", "Part"]) schemaOf(description, name).properties.deletedAt = { type: "integer" };
    },
  },
  {
    server: "plex",
    what: "GET /library/sections",
    why: "the older name of GET /library/sections/all (getSections): PMS answers both with the same container (apis.md §1.2)",
    patch: alias(["/library/sections/all", "get"], ["/library/sections", "get"], "getSectionsByOlderPath"),
  },
  {
    server: "plex",
    what: "GET /library/sections/{sectionId}/refresh",
    why: "the description lists POST only; PMS ≥ 1.32.7 answers 404 to POST there and every client scans with GET (apis.md §1.2)",
    patch: alias(
      ["/library/sections/{sectionId}/refresh", "post"],
      ["/library/sections/{sectionId}/refresh", "get"],
      "refreshSectionByGet",
    ),
  },
  {
    server: "plex",
    what: "GET /library/sections/{sectionId}/folder",
    why: "Plex's folder view (`parent` = a folder's id) is served by PMS and used by its own web app, but the description leaves it out",
    patch: add("/library/sections/{sectionId}/folder", "get", {
      operationId: "getFolderView",
      parameters: [pathParameter("sectionId", "integer"), queryParameter("parent", "integer")],
      responses: { "200": { description: "a MediaContainer of folders and items" } },
      security: plexToken,
    }),
  },
  {
    server: "plex-tv",
    what: "POST /pins and GET /pins/{pinId}",
    why: "plex.tv's PIN sign-in (the flow Plex's own apps use, round3.md §2) is not in the description",
    patch: (description) => {
      add("/pins", "post", {
        operationId: "createPin",
        parameters: [queryParameter("strong", "boolean")],
        responses: { "201": { description: "the PIN" } },
        // A PIN is asked for and polled before there is a token.
        security: [],
      })(description);
      add("/pins/{pinId}", "get", {
        operationId: "checkPin",
        parameters: [pathParameter("pinId", "integer")],
        responses: { "200": { description: "the PIN" } },
        security: [],
      })(description);
    },
  },
  {
    server: "drive",
    what: "POST /token (oauth2.googleapis.com) and GET /o/oauth2/v2/auth (accounts.google.com)",
    why: "Google's OAuth 2.0 endpoints are a service of their own, not in Drive's description: the fake OAuth (oauth.ts) checks only its Drive call, and answers the token and consent calls as Google's OAuth guides and RFC 6749 say, unchecked (drive.md §3, §4.4)",
  },
];

/** An api key the server also takes where the description does not declare it: added as an alternative to every requirement. */
function alsoKey(scheme: string, where: "header" | "query", name: string): (d: Description) => void {
  return (description) => {
    const components = (description.components ??= {}) as Record<string, Record<string, unknown>>;
    components.securitySchemes = { ...components.securitySchemes, [scheme]: { type: "apiKey", in: where, name } };
    const levels = [description, ...Object.values(description.paths).flatMap((item) => Object.values(item) as Operation[])];
    // The document's own requirement too: operations without one inherit it.
    for (const op of levels) {
      const security = op.security as unknown[] | undefined;
      if (Array.isArray(security) && security.length > 0 && !security.some((r) => Object.keys(r as object).length === 0))
        security.push({ [scheme]: [] });
    }
  };
}

/** Header parameters the description requires that the server does without. */
function optionalHeaders(names: readonly string[]): (d: Description) => void {
  const lower = new Set(names.map((n) => n.toLowerCase()));
  return (description) => {
    const components = description.components as { parameters?: Record<string, Record<string, unknown>> };
    for (const parameter of Object.values(components.parameters ?? {}))
      if (parameter.in === "header" && lower.has(String(parameter.name).toLowerCase())) parameter.required = false;
  };
}

/** The description with its server's gaps patched in. */
export function applyGaps(server: DescribedServer, description: Description): Description {
  for (const gap of SPEC_GAPS) if (gap.server === server) gap.patch?.(description);
  return description;
}
