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
  patch(description: Description): void;
}

type Operation = Record<string, unknown> & { parameters?: unknown[]; responses?: Record<string, unknown> };

function operation(description: Description, path: string, method: string): Operation {
  const found = description.paths[path]?.[method];
  if (!found) throw new Error(`spec-gaps: the description has no ${method.toUpperCase()} ${path} any more; review this gap`);
  return found as Operation;
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
      const schemas = (description.components as { schemas: Record<string, { properties: Record<string, unknown> }> }).schemas;
      const section = schemas.LibrarySection;
      if (!section?.properties.hidden) throw new Error("spec-gaps: LibrarySection.hidden is gone; review this gap");
      section.properties.hidden = { type: ["integer", "boolean"] };
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
      })(description);
      add("/pins/{pinId}", "get", {
        operationId: "checkPin",
        parameters: [pathParameter("pinId", "integer")],
        responses: { "200": { description: "the PIN" } },
      })(description);
    },
  },
];

/** An api key the server also takes where the description does not declare it: added as an alternative to every requirement. */
function alsoKey(scheme: string, where: "header" | "query", name: string): (d: Description) => void {
  return (description) => {
    const components = (description.components ??= {}) as Record<string, Record<string, unknown>>;
    components.securitySchemes = { ...components.securitySchemes, [scheme]: { type: "apiKey", in: where, name } };
    for (const item of Object.values(description.paths))
      for (const op of Object.values(item) as Operation[]) {
        const security = op.security as unknown[] | undefined;
        if (Array.isArray(security) && security.length > 0 && !security.some((r) => Object.keys(r as object).length === 0))
          security.push({ [scheme]: [] });
      }
  };
}

/** The description with its server's gaps patched in. */
export function applyGaps(server: DescribedServer, description: Description): Description {
  for (const gap of SPEC_GAPS) if (gap.server === server) gap.patch(description);
  return description;
}
