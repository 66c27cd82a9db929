import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse as parseJsonc } from "jsonc-parser";
import { parse as parseYaml } from "yaml";
import { sharedFixture } from "../../helpers/shared-fixtures.js";
import { describeDriveFromClient } from "./drive-description.js";
import { describeJellyfinFromSdk } from "./jellyfin-description.js";

/** The servers whose vendors publish an API description the fakes are checked against. */
export type DescribedServer = "plex" | "plex-tv" | "emby" | "jellyfin" | "drive" | "sonarr" | "radarr" | "lidarr" | "readarr";

/** An OpenAPI 3.x document, as JSON. */
export type Description = Record<string, unknown> & { paths: Record<string, Record<string, unknown>> };

const specs = sharedFixture("specs", "the fakes' checks against the vendors' API descriptions", "specs/README.md");
const plexSpec = sharedFixture("plex/plex-api-spec.yaml", "the fake Plex's check against plex-api-spec.yaml");

const FILES: Record<Exclude<DescribedServer, "jellyfin" | "drive" | "plex" | "plex-tv">, string> = {
  emby: "emby.openapi-v2.json",
  sonarr: "sonarr-v3.openapi.json",
  radarr: "radarr-v3.openapi.json",
  lidarr: "lidarr-v1.openapi.json",
  readarr: "readarr-v1.openapi.json",
};

/** Whether the descriptions can be read here: outside CI a missing ../shared/fixtures turns the checks off (with a warning). */
export function descriptionsAvailable(server: DescribedServer): boolean {
  if (server === "jellyfin" || server === "drive") return true;
  return server === "plex" || server === "plex-tv" ? plexSpec.run : specs.run;
}

/**
 * The server's description as OpenAPI 3.x. Parsing Plex's YAML, converting
 * Emby's Swagger 2.0 and reading Drive's generated client take a second or
 * two, so the result is kept in the temp folder under the source's hash and
 * read back from there.
 */
export async function loadDescription(server: DescribedServer): Promise<Description> {
  if (server === "jellyfin") return cached("jellyfin", "@jellyfin/sdk@0.13.0", async () => describeJellyfinFromSdk());
  if (server === "drive") {
    const require = createRequire(import.meta.url);
    const text = readFileSync(path.join(path.dirname(require.resolve("@googleapis/drive/package.json")), "v3.ts"), "utf8");
    return cached("drive", text, async () => describeDriveFromClient(text));
  }
  if (server === "plex" || server === "plex-tv") {
    const text = readFileSync(plexSpec.file(), "utf8");
    return cached("plex", text, async () => parseYaml(text) as Description);
  }
  const text = readFileSync(specs.file(FILES[server]), "utf8");
  if (server !== "emby") return named(JSON.parse(text) as Description);
  return cached("emby", text, async () => {
    // Upstream's file has a trailing comma after info.contact.
    const swagger: unknown = parseJsonc(text, [], { allowTrailingComma: true });
    const { convertObj } = createRequire(import.meta.url)("swagger2openapi") as {
      convertObj(doc: unknown, options: Record<string, unknown>): Promise<{ openapi: Description }>;
    };
    return (await convertObj(swagger, { patch: true, warnOnly: true })).openapi;
  });
}

/** The *arr descriptions give their operations no operationId; the validator keys its schemas by one. */
function named(description: Description): Description {
  for (const [path, item] of Object.entries(description.paths))
    for (const [method, op] of Object.entries(item))
      if (typeof op === "object" && op !== null && !("operationId" in op))
        (op as Record<string, unknown>).operationId = `${method} ${path}`;
  return description;
}

async function cached(name: string, source: string, build: () => Promise<Description>): Promise<Description> {
  const hash = createHash("sha256").update(source).digest("hex").slice(0, 16);
  const dir = path.join(tmpdir(), "scanarr-api-descriptions");
  const file = path.join(dir, `${name}-${hash}.json`);
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Description;
  } catch {
    const built = await build();
    mkdirSync(dir, { recursive: true });
    // Test files run in parallel: each writes its own temp file and renames it into place.
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(built));
    renameSync(temp, file);
    return built;
  }
}
