import type { CommandContext } from "./context.js";
import { writeLine } from "./output.js";
import { configuredWebhookUrl } from "./webhook-url.js";

export interface UrlOptions {
  host?: string;
}

/**
 * `scanarr url`: the webhook URL with the pass in full, once, on stdout (so
 * it can be piped); the warning goes to stderr.
 */
export async function run(options: UrlOptions, ctx: CommandContext): Promise<number> {
  writeLine(ctx.stdout, configuredWebhookUrl(ctx.config, options.host));
  writeLine(ctx.stderr, "This URL contains SERVER_PASS: anyone who has it can queue scans. Paste it only into the *arr apps:");
  writeLine(ctx.stderr, "Settings > Connect > + > Webhook, method POST, events On Import/Upgrade, On Rename and the deletes.");
  writeLine(ctx.stderr, "Use a host name the *arr app can reach (in Docker, the scanarr service's name): --host <name>.");
  return 0;
}
