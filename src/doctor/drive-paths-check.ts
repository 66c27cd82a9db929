import type { Config } from "../config/types.js";
import { createServerMapper, createSourceTable } from "../ingest/sources.js";
import { describeMappingToAdd, suggestDriveMapping } from "../paths/drive-mapping-hint.js";
import { PathError } from "../paths/mapper.js";
import { describeLibraries, libraryLocations, type ResolvedTarget } from "../paths/trace.js";
import { isWithin } from "../paths/within.js";
import { knownTargets, placeOn, type Placement } from "./mapping-places.js";
import type { CheckResult, DoctorCheck } from "./types.js";

/** A drive folder monitoring finds files in, and whether the remote's folder leaves it out. */
interface Watched {
  path: string;
  outside?: string;
}

/**
 * With drive monitoring on: every folder it finds files in (each
 * CLOUD.ALLOWED.FILE_PATHS entry, and the root of CLOUD.RCLONE_REMOTE's
 * folder in the Drive form monitoring gives decoded names) maps through
 * SERVER_PATH_MAPPINGS into a library of every target. A crypt user's
 * `My Drive/encrypt/...` left out of the mappings otherwise fails nowhere:
 * monitoring finds the files and every one is dropped as unmappable.
 */
export const drivePathsCheck: DoctorCheck = {
  name: "drive paths",
  async run(ctx) {
    if (!ctx.config.CLOUD.ENABLED) return [];
    const root = ctx.config.CLOUD.RCLONE_REMOTE ? await remoteRoot(ctx.config, ctx.env ?? {}) : undefined;
    const watched = watchedFolders(ctx.config.CLOUD.ALLOWED.FILE_PATHS, root);
    const resolved = await ctx.libraries();
    const mapper = createSourceTable(ctx.config).settingsFor("drive")?.mapper ?? createServerMapper(ctx.config);
    const placed = watched.map((w) => ({ ...w, ...placeFolder(w.path, mapper.explain, resolved) }));
    const servesSome = new Set(placed.flatMap((p) => (p.on ?? []).filter((o) => o.found.length > 0).map((o) => o.target.name)));
    return placed.map((p): CheckResult => {
      const name = `drive path ${p.path}`;
      if (p.outside) return { name, ok: false, detail: p.outside };
      if (p.server === undefined) return unmapped(name, p.path, ctx.config, resolved);
      return judge(name, p.path, p.server, p.on ?? [], servesSome);
    });
  },
};

/** The Drive path of the remote's folder (`My Drive/encrypt/` for `gc:` over `gd:encrypt`); undefined where only Drive knows it. */
async function remoteRoot(config: Config, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const [{ readRcloneRemotes, resolveDriveRemote }, { rcloneConfigFile }] = await Promise.all([
    import("../rclone/drive-remote.js"),
    import("../rclone/monitor-remote.js"),
  ]);
  try {
    const remotes = await readRcloneRemotes(rcloneConfigFile(config, env), env.RCLONE_CONFIG_PASS);
    const remote = resolveDriveRemote(config.CLOUD.RCLONE_REMOTE, remotes);
    // A shared drive's name or a root_folder_id's path needs Drive itself; the drive line talks to it.
    if (remote.section.team_drive || remote.section.root_folder_id) return undefined;
    return `${["My Drive", ...remote.folder, ...(remote.crypt?.within ?? [])].join("/")}/`;
  } catch {
    return undefined; // the drive line says why rclone.conf or the remote cannot be read
  }
}

/** FILE_PATHS inside the remote's folder; the folder itself when none narrows it; the others are never watched. */
function watchedFolders(filePaths: readonly string[], root: string | undefined): Watched[] {
  const folders = filePaths.filter((p) => p.trim() !== "").map((p) => p.replace(/\/*$/, "/"));
  if (root === undefined) return folders.map((path) => ({ path }));
  const inside = (parent: string, child: string) => isWithin(parent.toLowerCase(), child.toLowerCase());
  const narrowing = folders.filter((f) => inside(root, f));
  const out: Watched[] = narrowing.length > 0 ? narrowing.map((path) => ({ path })) : [{ path: root }];
  for (const f of folders.filter((f) => !inside(root, f) && !inside(f, root)))
    out.push({ path: f, outside: `${f} is outside the folder CLOUD.RCLONE_REMOTE watches (${root}), so no file under it is ever found` });
  return out;
}

function placeFolder(
  drivePath: string,
  explain: (input: string) => { serverPath: string },
  resolved: readonly ResolvedTarget[],
): { server?: string; on?: Placement[] } {
  try {
    const server = explain(drivePath).serverPath;
    return { server, on: knownTargets(resolved).map((t) => placeOn(t, t.toTargetPath(server))) };
  } catch (error) {
    if (error instanceof PathError) return {};
    throw error;
  }
}

/** No mapping takes the folder: passes only when mapping entries lie inside it (`My Drive/encrypt/Media/TV/`). */
function unmapped(name: string, drivePath: string, config: Config, resolved: readonly ResolvedTarget[]): CheckResult {
  const within = Object.entries(config.SERVER_PATH_MAPPINGS).flatMap(([key, entries]) =>
    entries.filter((e) => isWithin(drivePath, e)).map((e) => `${e} -> ${key}`),
  );
  if (within.length > 0)
    return { name, ok: true, detail: `${drivePath} maps folder by folder through SERVER_PATH_MAPPINGS: ${within.join(", ")}` };
  const add = describeMappingToAdd(suggestDriveMapping(drivePath, libraryLocations(resolved), drivePath));
  return {
    name,
    ok: false,
    detail: `drive monitoring finds files in ${drivePath}, but no SERVER_PATH_MAPPINGS entry maps it, so none of them is scanned: ${add}`,
  };
}

function judge(name: string, drivePath: string, server: string, on: readonly Placement[], servesSome: ReadonlySet<string>): CheckResult {
  if (on.length === 0)
    return { name, ok: false, detail: `cannot check ${drivePath} -> ${server}: libraries unknown (see the target lines)` };
  const held = on.filter((o) => o.found.length > 0);
  const missed = on.filter((o) => o.found.length === 0 && !servesSome.has(o.target.name));
  const libs = (o: Placement) => describeLibraries(Array.isArray(o.target.libraries) ? o.target.libraries : []);
  if (held.length === 0 || missed.length > 0) {
    const where = (held.length === 0 ? on : missed).map((o) => `${o.target.name} has ${libs(o)}`).join("; ");
    return {
      name,
      ok: false,
      detail: `${drivePath} maps to ${server}, which is in no library of ${names(held.length === 0 ? on : missed)}: ${where}`,
    };
  }
  return { name, ok: true, detail: `${drivePath} maps to ${server}, ${held.flatMap((o) => o.found).join(", ")}` };
}

function names(on: readonly Placement[]): string {
  return on.map((o) => o.target.name).join(" and ");
}
