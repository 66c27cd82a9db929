import { writeFileAtomic } from "../lib/atomic-write.js";
import { unifiedDiff } from "../lib/line-diff.js";
import { maskSecret } from "../lib/mask.js";
import type { SetupContext } from "./context.js";

/** What the write step did. */
export type WriteOutcome = "written" | "unchanged" | "declined";

type WriteContext = Pick<SetupContext, "prompt" | "say" | "interactive" | "flags">;

/**
 * Shows the change as a unified diff (secrets shortened to their last four
 * characters), asks before writing (--yes answers), and writes atomically
 * with mode 0600. An unchanged text writes nothing and says so.
 */
export async function writeConfigChange(
  ctx: WriteContext,
  file: string,
  before: string | undefined,
  after: string,
  secrets: readonly string[],
): Promise<WriteOutcome> {
  if (before === after) {
    ctx.say(`Nothing to change in ${file}.`);
    return "unchanged";
  }
  const diff = unifiedDiff(before ?? "", after, { before: before === undefined ? "/dev/null" : file, after: file });
  ctx.say();
  ctx.say(before === undefined ? `${file} does not exist yet; it will be:` : `Changes to ${file}:`);
  ctx.say(shorten(diff, secrets));
  ctx.say();
  const write = ctx.flags.yes || (await ctx.prompt.confirm({ message: `Write ${file}?`, default: true, flag: "--yes" }));
  if (!write) {
    ctx.say(`${file} left unchanged.`);
    return "declined";
  }
  await writeFileAtomic(file, after, { mode: 0o600, forceMode: true });
  ctx.say(`Wrote ${file} (mode 0600).`);
  return "written";
}

function shorten(text: string, secrets: readonly string[]): string {
  const ordered = [...new Set(secrets)].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length);
  return ordered.reduce((out, secret) => out.split(secret).join(maskSecret(secret)), text);
}
