import { hostname } from "node:os";
import { UserError } from "../domain.js";
import type { CommandContext } from "./context.js";
import { writeLine } from "./output.js";

export interface UrlOptions {
  host?: string;
}

/**
 * `scanarr url`: the webhook URL with the pass in full, once, on stdout (so
 * it can be piped); the warning goes to stderr.
 */
export async function run(options: UrlOptions, ctx: CommandContext): Promise<number> {
  writeLine(ctx.stdout, webhookUrl(ctx.config.SERVER_PORT, ctx.config.SERVER_PASS, options.host ?? defaultHost(ctx.config.SERVER_IP)));
  writeLine(ctx.stderr, "This URL contains SERVER_PASS: anyone who has it can queue scans. Paste it only into the *arr apps:");
  writeLine(ctx.stderr, "Settings > Connect > + > Webhook, method POST, events On Import/Upgrade, On Rename and the deletes.");
  writeLine(ctx.stderr, "Use a host name the *arr app can reach (in Docker, the scanarr service's name): --host <name>.");
  return 0;
}

/** The address the *arr apps post to: http://<host>:<port>/<pass>. */
export function webhookUrl(port: number, pass: string, host: string): string {
  if (port === 0)
    throw new UserError("SERVER_PORT is 0 (a free port picked at start): the URL is in the log line `listening on` of serve", 1);
  const shown = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return `http://${shown}:${port}/${encodeURIComponent(pass)}`;
}

function defaultHost(ip: string): string {
  return ip === "0.0.0.0" || ip === "::" ? hostname() : ip;
}
