import {
  ARR_KIND_INFO,
  ARR_KINDS,
  ArrTestFailedError,
  connectArr,
  DEFAULT_CONNECTION_NAME,
  isArrKind,
  listArrConnections,
  recogniseArr,
  type ArrKind,
} from "../arr/index.js";
import { InterruptedError, UserError } from "../domain.js";
import { scanarrHealth } from "../doctor/listen-check.js";
import { messageOf } from "../lib/errors.js";
import { serverUrlProblem } from "../lib/server-url.js";
import { rememberConnected, rememberedApps } from "../setup/remember-apps.js";
import { createLinePrompt } from "../rclone/wizard/line-prompt.js";
import { PromptInterruptedError } from "../rclone/wizard/prompt.js";
import { parseArrFlag, type ArrFlag } from "./arr-flag.js";
import { connectLines, describeApp, hidePass, listLines } from "./connect-output.js";
import type { CommandContext } from "./context.js";
import { writeLine } from "./output.js";
import { configuredWebhookUrl } from "./webhook-url.js";

export interface ConnectOptions {
  /** sonarr, radarr, lidarr or readarr; recognised from the app when absent. */
  kind?: string;
  url?: string;
  apiKey?: string;
  /** The host the apps reach scanarr by, as for `scanarr url`. */
  host?: string;
  name?: string;
  /** false (`--no-test`): save without the app's test even when scanarr is running. */
  test?: boolean;
  list?: boolean;
  /** `--arr <url>,<api key>` values, for --list. */
  arr?: string[];
}

/**
 * `scanarr connect [app] --url … --api-key …`: creates or updates the app's
 * Webhook connection to this scanarr. `--list`: which apps point here.
 */
export async function run(options: ConnectOptions, ctx: CommandContext): Promise<number> {
  const kind = readKind(options.kind);
  const webhookUrl = configuredWebhookUrl(ctx.config, options.host);
  if (options.list) return list(options, ctx, webhookUrl);
  const { url, apiKey } = await askMissing(options, ctx);
  const app = await recogniseArr(url, apiKey, { kind });
  const name = options.name ?? DEFAULT_CONNECTION_NAME;
  const test = options.test !== false && (await isScanarrRunning(ctx, webhookUrl));
  const hide = hidePass(ctx.config.SERVER_PASS);
  try {
    const result = await connectArr(app, { webhookUrl, name, test });
    for (const line of connectLines(app, result, name, hide(webhookUrl))) writeLine(ctx.stdout, line);
    const remembered = await rememberConnected(ctx.paths.configFile, [app]);
    if (remembered.line) writeLine(remembered.ok ? ctx.stdout : ctx.stderr, `${remembered.ok ? "" : "warning: "}${remembered.line}`);
    return 0;
  } catch (error) {
    if (!(error instanceof ArrTestFailedError)) throw error;
    writeLine(ctx.stderr, `error: ${describeApp(app)} tested ${hide(webhookUrl)} and refused to save the connection; nothing changed:`);
    for (const reason of error.reasons) writeLine(ctx.stderr, `  ${hide(reason)}`);
    writeLine(
      ctx.stderr,
      "Check that the app reaches scanarr by that host name (--host, e.g. the scanarr container's name), or save anyway with --no-test.",
    );
    return 1;
  }
}

/** The apps given with --arr (or --url and --api-key); without them, the ones connect and setup remembered. */
async function list(options: ConnectOptions, ctx: CommandContext, webhookUrl: string): Promise<number> {
  const kind = readKind(options.kind);
  const given: ArrFlag[] = (options.arr ?? []).map((value) => parseArrFlag(value));
  if (options.url !== undefined || options.apiKey !== undefined) given.push(await askMissing(options, ctx));
  const apps = given.length > 0 ? given.map((flag) => ({ ...flag, kind })) : rememberedApps(ctx.config, kind);
  if (apps.length === 0)
    throw new UserError(
      `no ${kind ? `${ARR_KIND_INFO[kind].appName} app` : "app"} to look at: none is remembered in ARR_APPS (\`scanarr connect\` and \`scanarr setup\` remember the apps they connect); give each as --arr <url>,<api key> (repeatable)`,
      2,
    );
  const hide = hidePass(ctx.config.SERVER_PASS);
  let failed = 0;
  for (const known of apps) {
    try {
      const app = await recogniseArr(known.url, known.apiKey, { kind: known.kind });
      for (const line of listLines(app, await listArrConnections(app, webhookUrl), hide)) writeLine(ctx.stdout, line);
    } catch (error) {
      failed++;
      // The client's messages name the app's address; one that does not gets it in front.
      const message = hide(messageOf(error));
      const who = `${known.kind ? `${ARR_KIND_INFO[known.kind].appName} at ` : ""}${known.url}`;
      writeLine(ctx.stderr, `error: ${message.includes(known.url.replace(/\/+$/, "")) ? message : `${who}: ${message}`}`);
    }
  }
  return failed > 0 ? 1 : 0;
}

function readKind(raw: string | undefined): ArrKind | undefined {
  if (raw === undefined) return undefined;
  const kind = raw.toLowerCase();
  if (!isArrKind(kind))
    throw new UserError(`unknown app "${raw}": one of ${ARR_KINDS.join(", ")}, or leave it out to recognise the app`, 2);
  return kind;
}

/** --url and --api-key, asked for on a terminal; without one, a missing flag is a usage error naming it. */
async function askMissing(options: ConnectOptions, ctx: CommandContext): Promise<ArrFlag> {
  const terminal = Boolean((ctx.stdin as { isTTY?: boolean }).isTTY);
  const missing = [options.url === undefined ? "--url" : "", options.apiKey === undefined ? "--api-key" : ""].filter(Boolean);
  if (missing.length > 0 && !terminal) throw new UserError(`${missing.join(" and ")}: missing (no terminal to ask on)`, 2);
  const prompt = missing.length > 0 ? createLinePrompt(ctx.stdin, ctx.stdout, ctx.signal) : undefined;
  try {
    const url = options.url ?? (await prompt?.ask({ message: "The app's URL (e.g. http://localhost:8989): ", flag: "url" })) ?? "";
    const problem = serverUrlProblem(url, "--api-key");
    if (problem !== undefined) throw new UserError(`--url ${problem}`, 2);
    const apiKey =
      options.apiKey ?? (await prompt?.ask({ message: "Its API key (Settings > General): ", secret: true, flag: "api-key" })) ?? "";
    if (apiKey.trim() === "") throw new UserError("--api-key: empty", 2);
    return { url, apiKey: apiKey.trim() };
  } catch (error) {
    if (!(error instanceof PromptInterruptedError)) throw error;
    if (error.reason === "interrupt") throw new InterruptedError("interrupted: no app was changed");
    throw new UserError(`${missing.join(" and ")}: input ended before an answer; nothing changed`, 2);
  } finally {
    prompt?.close();
  }
}

/** Whether a scanarr answers /health at the webhook URL's host, or at SERVER_IP:SERVER_PORT on this machine. */
export async function isScanarrRunning(ctx: Pick<CommandContext, "config">, webhookUrl: string): Promise<boolean> {
  const { hostname, port } = new URL(webhookUrl);
  const bare = hostname.replace(/^\[|\]$/g, "");
  if ((await scanarrHealth(bare, Number(port))) !== undefined) return true;
  return (await scanarrHealth(ctx.config.SERVER_IP, ctx.config.SERVER_PORT)) !== undefined;
}
