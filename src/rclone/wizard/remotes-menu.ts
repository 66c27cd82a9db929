import { hasSection, listSections, readSection } from "../conf-document.js";
import { appendSection, copySection, removeSection, renameSection, setConfValue } from "../conf-edit.js";
import { checkRemoteName } from "../conf-rules.js";
import { askLetter } from "./ask.js";
import type { Context } from "./context.js";
import { configureCryptRemote, offerCryptRemote } from "./crypt-remote.js";
import { configureDriveRemote, confirmRemote } from "./drive-remote.js";
import { runPasswordMenu } from "./password-menu.js";

/*
 * Steps 1, 2, 12 and 13: the menus around a remote. Every change goes to the
 * working copy `ctx.doc`; the caller writes the file once the user quits.
 */

export function listRemotes(ctx: Pick<Context, "doc">): string[] {
  return listSections(ctx.doc).filter((name) => hasSection(ctx.doc, name));
}

function formatRemotes(ctx: Pick<Context, "doc">): string {
  const rows = listRemotes(ctx).map((name) => `${name.padEnd(20)} ${readSection(ctx.doc, name).get("type") ?? ""}`);
  return `Current remotes:\n\nName                 Type\n====                 ====\n${rows.join("\n")}\n`;
}

/** The main loop: n/s/q without remotes, e/n/d/r/c/s/q with them. Returns on q. */
export async function runMenus(ctx: Context): Promise<void> {
  for (;;) {
    const remotes = listRemotes(ctx);
    let choice: string;
    if (remotes.length === 0) {
      choice = await askLetter(ctx, "No remotes found, make a new one?", [
        ["n", "New remote"],
        ["s", "Set configuration password"],
        ["q", "Quit config"],
      ]);
    } else {
      ctx.print(`\n${formatRemotes(ctx)}\n`);
      choice = await askLetter(ctx, "", [
        ["e", "Edit existing remote"],
        ["n", "New remote"],
        ["d", "Delete remote"],
        ["r", "Rename remote"],
        ["c", "Copy remote"],
        ["s", "Set configuration password"],
        ["q", "Quit config"],
      ]);
    }
    if (choice === "q") return;
    if (choice === "n") await createRemote(ctx, await askNewName(ctx, "Enter name for new remote."));
    if (choice === "s") ctx.password = await runPasswordMenu(ctx);
    if (choice === "e") await editRemote(ctx, await chooseRemote(ctx));
    if (choice === "d") removeSection(ctx.doc, await chooseRemote(ctx));
    if (choice === "r") renameSection(ctx.doc, await chooseRemote(ctx), await askNewName(ctx, "Enter new name for remote."));
    if (choice === "c") {
      const from = await chooseRemote(ctx);
      copySection(ctx.doc, from, await askNewName(ctx, "Enter name for copy of remote."));
    }
  }
}

export async function askNewName(ctx: Context, title: string): Promise<string> {
  ctx.print(`\n${title}\n`);
  const existing = listRemotes(ctx);
  return ctx.prompt.ask({ message: "name> ", flag: "name", validate: (answer) => checkRemoteName(answer, existing, ctx.platform) });
}

async function chooseRemote(ctx: Context): Promise<string> {
  const remotes = listRemotes(ctx);
  ctx.print(
    `\nChoose a number from below, or type in an existing value.\n${remotes.map((name, i) => `${String(i + 1).padStart(2)} > ${name}`).join("\n")}\n`,
  );
  const answer = await ctx.prompt.ask({
    message: "remote> ",
    validate: (typed) =>
      remotes.includes(typed) || (/^\d+$/.test(typed) && Number(typed) >= 1 && Number(typed) <= remotes.length)
        ? undefined
        : "Choose a remote by its number or its name.",
  });
  return remotes.includes(answer) ? answer : remotes[Number(answer) - 1]!;
}

/** Steps 3-12 for a new drive remote, then the crypt offer. Returns whether it was kept. */
export async function createRemote(ctx: Context, name: string): Promise<boolean> {
  let options = await configureDriveRemote(ctx);
  for (;;) {
    const answer = await confirmRemote(ctx, name, options);
    if (answer === "d") return false;
    if (answer === "y") break;
    options = await configureDriveRemote(ctx, options);
  }
  ctx.flags = {};
  appendSection(ctx.doc, name, [...options]);
  ctx.print(`\nPut "${name}" in the sync-tool (rclone remote) settings of your installation.\n`);
  const crypt = await offerCryptRemote(ctx, name, listRemotes(ctx));
  if (crypt) appendSection(ctx.doc, crypt[0], [...crypt[1]]);
  return true;
}

async function editRemote(ctx: Context, name: string): Promise<void> {
  const current = readSection(ctx.doc, name);
  const type = current.get("type");
  let options: Map<string, string>;
  if (type === "drive") options = await configureDriveRemote(ctx, current);
  else if (type === "crypt") options = await configureCryptRemote(ctx, (current.get("remote") ?? "").split(":")[0] ?? name, current);
  else {
    ctx.print(`scanarr edits drive and crypt remotes; use \`rclone config\` to edit this ${type ?? "untyped"} remote.\n`);
    return;
  }
  if ((await confirmRemote(ctx, name, options)) !== "y") return;
  for (const [key, value] of options) if (current.get(key) !== value) setConfValue(ctx.doc, name, key, value);
}
