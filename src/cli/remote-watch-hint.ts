import { listSections, readSection, type ConfDocument } from "../rclone/conf-document.js";

/** Each remote's keys and values, to tell afterwards which remotes the wizard made or changed. */
export function snapshotRemotes(doc: ConfDocument): Map<string, string> {
  return new Map(listSections(doc).map((name) => [name, JSON.stringify([...readSection(doc, name)])]));
}

/**
 * The config keys that make `serve` watch a remote the wizard just made or
 * changed: a crypt remote over a drive remote first (its names are decoded),
 * else a drive remote; `RCLONE.CONFIG` too when rclone.conf was named with a
 * flag, since serve would not look there by itself. Undefined when no drive
 * or crypt remote changed.
 */
export function watchHint(before: ReadonlyMap<string, string>, doc: ConfDocument, file: string, namedByFlag: boolean): string | undefined {
  const after = snapshotRemotes(doc);
  const changed = [...after.keys()].filter((name) => before.get(name) !== after.get(name));
  const typeOf = (name: string) => readSection(doc, name).get("type");
  const overDrive = (name: string) => {
    const under = /^([^:]+):/.exec(readSection(doc, name).get("remote") ?? "")?.[1];
    return under !== undefined && typeOf(under) === "drive";
  };
  const remote = changed.find((name) => typeOf(name) === "crypt" && overDrive(name)) ?? changed.find((name) => typeOf(name) === "drive");
  if (remote === undefined) return undefined;
  const keys = [`"CLOUD": {"ENABLED": true, "RCLONE_REMOTE": "${remote}:"}`];
  if (namedByFlag) keys.push(`"RCLONE": {"CONFIG": ${JSON.stringify(file)}}`);
  return `To watch it for new files, set in scanarr's config.json: ${keys.join(", ")} (docs/drive-monitoring.md), then run \`scanarr doctor\`.`;
}
