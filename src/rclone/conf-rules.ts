/*
 * Which names and values survive a trip through rclone. The name rule is the
 * intersection of rclone 1.60's and current rclone's, so a remote we create
 * works with either; values that rclone's writer would mangle are refused.
 */

const SAFE_NAME = /^[A-Za-z0-9_.]+(?:[ -]+[A-Za-z0-9_.]+)*$/;

/** Why `name` cannot be a new remote, or undefined when it can. */
export function checkRemoteName(
  name: string,
  existing: readonly string[],
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  if (name === "") return "Can't use empty name.";
  if (existing.includes(name)) return `Remote "${name}" already exists.`;
  if (!SAFE_NAME.test(name)) {
    return `Can't use "${name}" as config name contains invalid characters - may only contain numbers, letters, \`_\`, \`-\`, \`.\` and space, while not start with \`-\` or space, and not end with space or \`-\`.`;
  }
  if (platform === "win32" && /^[A-Za-z]$/.test(name))
    return `Can't use "${name}" as config name as it can be confused with a drive letter.`;
  const parent = existing.find((other) => name.startsWith(`${other}.`));
  // rclone looks up keys missing from `a.b` in section `a`, so such a remote would inherit settings.
  if (parent) return `Can't use "${name}": rclone would read its missing settings from remote "${parent}".`;
  return undefined;
}

/** Why rclone could not store `value` unchanged, or undefined when it can. */
export function checkConfValue(value: string): string | undefined {
  if (/[\r\n]/.test(value)) return "must be a single line (rclone.conf values cannot span lines)";
  if (value !== value.trim()) return "must not start or end with spaces (rclone would drop them)";
  if (value.includes("`")) return "must not contain a backtick (rclone cannot read it back unchanged)";
  if (value.startsWith('"""')) return 'must not start with """ (rclone would strip the quotes)';
  if (value.includes("%(")) return "must not contain %( (rclone would substitute it)";
  return undefined;
}
