import { UserError } from "../domain.js";
import { messageOf } from "../lib/errors.js";
import { listSections, readSection } from "./conf-document.js";
import { loadConf, readConfText } from "./conf-store.js";

/** rclone.conf's remotes, each as its keys and values. */
export type RcloneRemotes = ReadonlyMap<string, Record<string, string>>;

/** A remote as written on rclone's command line: `gcrypt:` or `gdrive:Media/TV`. */
export interface RemoteSpec {
  name: string;
  /** The path inside the remote, split into names; empty for its root. */
  path: string[];
}

/** The drive remote the monitor reads, reached directly or through a crypt remote over it. */
export interface DriveRemote {
  name: string;
  section: Record<string, string>;
  /** Plain folder names from the remote's root (root_folder_id, or the drive's root) to the folder to watch. */
  folder: string[];
  /** Set when CLOUD.RCLONE_REMOTE names a crypt remote: its folder is `folder`, its own path `within` (decoded names). */
  crypt: { name: string; section: Record<string, string>; within: string[] } | undefined;
}

/** Reads rclone.conf, encrypted or not; nothing is ever written back. */
export async function readRcloneRemotes(file: string, password: string | undefined): Promise<RcloneRemotes> {
  let text: string | undefined;
  try {
    text = await readConfText(file);
  } catch (error) {
    throw new UserError(`Cannot read the rclone config ${file}: ${messageOf(error)}`, 2);
  }
  if (text === undefined) throw new UserError(`The rclone config ${file} does not exist (RCLONE.CONFIG, or RCLONE_CONFIG).`, 2);
  let doc: ReturnType<typeof loadConf>["doc"];
  try {
    doc = loadConf(file, text, password).doc;
  } catch (error) {
    const hint = password === undefined ? ": it is encrypted, so set RCLONE_CONFIG_PASS in scanarr's environment" : "";
    throw new UserError(`Cannot open the rclone config ${file}: ${messageOf(error)}${hint}`, 2);
  }
  const remotes = new Map<string, Record<string, string>>();
  for (const name of listSections(doc)) remotes.set(name, Object.fromEntries(readSection(doc, name)));
  return remotes;
}

/** Splits `name:path`; on-the-fly remotes (`:drive:`) and bare paths are refused. */
export function parseRemoteSpec(spec: string, what: string): RemoteSpec {
  const colon = spec.indexOf(":");
  if (colon <= 0) throw new UserError(`${what}: "${spec}" is not an rclone remote (a name and a colon, such as "gcrypt:")`, 2);
  return {
    name: spec.slice(0, colon),
    path: spec
      .slice(colon + 1)
      .split("/")
      .filter(Boolean),
  };
}

/** The remote's section, or a UserError that lists the remotes there are. */
export function findRemote(remotes: RcloneRemotes, name: string, what: string): Record<string, string> {
  const section = remotes.get(name);
  if (section) return section;
  const known = [...remotes.keys()].filter((n) => n !== "DEFAULT");
  throw new UserError(
    `${what}: there is no remote "${name}" in the rclone config (it has ${known.length ? known.join(", ") : "no remotes"}).`,
    2,
  );
}

/**
 * Follows CLOUD.RCLONE_REMOTE to the drive remote under it: a drive remote is
 * used as it is; a crypt remote's `remote = <drive>:<folder>` names the drive
 * and the folder that holds the encrypted tree. Other types are refused.
 */
export function resolveDriveRemote(spec: string, remotes: RcloneRemotes): DriveRemote {
  const what = "CLOUD.RCLONE_REMOTE";
  const wanted = parseRemoteSpec(spec, what);
  const section = findRemote(remotes, wanted.name, what);
  if (section.type === "drive") return { name: wanted.name, section, folder: wanted.path, crypt: undefined };
  if (section.type !== "crypt") {
    throw new UserError(
      `${what}: remote "${wanted.name}" is of type "${section.type ?? "?"}"; only drive and crypt (over drive) remotes can be watched.`,
      2,
    );
  }
  const under = parseRemoteSpec(section.remote ?? "", `${what}: crypt remote "${wanted.name}"'s remote`);
  const drive = findRemote(remotes, under.name, `${what}: crypt remote "${wanted.name}"`);
  if (drive.type !== "drive") {
    throw new UserError(
      `${what}: crypt remote "${wanted.name}" lies over "${under.name}", of type "${drive.type ?? "?"}"; only a crypt over a drive remote can be watched.`,
      2,
    );
  }
  return { name: under.name, section: drive, folder: under.path, crypt: { name: wanted.name, section, within: wanted.path } };
}
