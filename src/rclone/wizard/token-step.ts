import { UserError } from "../../domain.js";
import {
  buildAuthorizeArgs,
  formatAuthorizeCommand,
  parseAuthorizeOutput,
  PASTE_END,
  PASTE_START,
  TokenPasteError,
  type AuthorizeResult,
} from "../token.js";
import { askYesNo } from "./ask.js";
import type { Context } from "./context.js";
import type { DriveOptions } from "./drive-options.js";

type Step = Pick<Context, "prompt" | "print" | "flags" | "interactive" | "runAuthorize">;

/** rclone's own log lines, which a user may paste along with the token. */
const NOTICE_LINE = /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} [A-Z]+ ?:/;

/** Gets the OAuth token (steps 9-10): a flag, a local `rclone authorize`, or a paste. */
export async function obtainToken(ctx: Step, options: DriveOptions): Promise<void> {
  if (ctx.flags.token !== undefined) {
    applyResult(options, parseFlagToken(ctx.flags.token));
    return;
  }
  if (!ctx.interactive) throw new UserError("--token or --service-account-file is required with --non-interactive", 2);
  if (options.has("token") && !(await askYesNo(ctx, "\nAlready have a token - refresh?", false))) return;
  const args = buildAuthorizeArgs(Object.fromEntries(options));
  const auto = await askYesNo(
    ctx,
    "\nUse auto config?\n * Say Y if not sure\n * Say N if you are working on a remote or headless machine\n",
    true,
  );
  if (auto) {
    const result = await authorizeLocally(ctx, args);
    if (result) {
      applyResult(options, result);
      return;
    }
  }
  applyResult(options, await readPastedToken(ctx, args));
}

function parseFlagToken(text: string): AuthorizeResult {
  try {
    return parseAuthorizeOutput(text);
  } catch (error) {
    throw new UserError(`--token: ${(error as Error).message}`, 2);
  }
}

function applyResult(options: DriveOptions, result: AuthorizeResult): void {
  for (const [key, value] of Object.entries(result.extra)) options.set(key, value);
  options.set("token", result.token);
}

async function authorizeLocally(ctx: Step, args: string[]): Promise<AuthorizeResult | undefined> {
  ctx.print(`Running ${formatAuthorizeCommand(args)} on this machine; log in with the browser it opens.\n`);
  try {
    return parseAuthorizeOutput(await ctx.runAuthorize(args));
  } catch (error) {
    ctx.print(`Local authorization failed: ${(error as Error).message}\nFalling back to pasting the token.\n`);
    return undefined;
  }
}

/** Reads the paste line by line, so a whole marker block typed or pasted at once is accepted. */
async function readPastedToken(ctx: Step, args: string[]): Promise<AuthorizeResult> {
  ctx.print(
    "\nOption config_token.\nFor this to work, you will need rclone available on a machine that has\na web browser available.\n" +
      "For more help and alternate methods see: https://rclone.org/remote_setup/\n" +
      "Execute the following on the machine with the web browser (same rclone\nversion recommended):\n" +
      `\t${formatAuthorizeCommand(args)}\nThen paste the result.\nEnter a value.\n`,
  );
  for (;;) {
    let text = await ctx.prompt.ask({
      message: "config_token> ",
      validate: (line) => (line === "" ? "This value is required and it has no default." : undefined),
    });
    if (NOTICE_LINE.test(text)) continue;
    if (text.includes(PASTE_START) && !text.includes(PASTE_END)) text = await readUntilEndMarker(ctx, text);
    try {
      return parseAuthorizeOutput(text);
    } catch (error) {
      if (!(error instanceof TokenPasteError)) throw error;
      ctx.print(`${error.message}\n`);
    }
  }
}

async function readUntilEndMarker(ctx: Pick<Context, "prompt">, first: string): Promise<string> {
  const lines = [first];
  for (;;) {
    const line = await ctx.prompt.ask({ message: "" });
    lines.push(line);
    if (line.includes(PASTE_END)) return lines.join("\n");
  }
}
