import { ArrTestFailedError, connectArr, ARR_KIND_INFO } from "../arr/index.js";
import { messageOf } from "../lib/errors.js";
import type { ArrChoice } from "./arr-step.js";
import type { SetupContext } from "./context.js";

type ConnectContext = Pick<SetupContext, "prompt" | "say" | "interactive" | "flags" | "services">;

/**
 * Step 5: each app gets one Webhook connection to scanarr with its
 * file-changing events (created, updated, or left as it is). When scanarr
 * answers at the URL the app's own test proves it; when it does not, the
 * connection is saved untested and the user is told. Returns how many apps
 * could not be connected.
 */
export async function connectApps(
  ctx: ConnectContext,
  apps: readonly ArrChoice[],
  webhookUrl: string,
  scanarrRunning: boolean,
): Promise<number> {
  if (apps.length === 0) return 0;
  ctx.say();
  ctx.say(
    scanarrRunning
      ? "scanarr answers: each app tests the webhook before saving it."
      : "scanarr is not running: the connections are saved without the apps' test.",
  );
  let failed = 0;
  for (const { app, label } of apps) {
    const events = ARR_KIND_INFO[app.kind].fileEvents.join(", ");
    const go =
      ctx.flags.yes ||
      (await ctx.prompt.confirm({
        message: `Connect ${label} at ${app.url} to scanarr (events: ${events})?`,
        default: true,
        flag: "--yes",
      }));
    if (!go) continue;
    try {
      const result = await connectArr(app, {
        webhookUrl,
        test: scanarrRunning,
        timeoutMs: ctx.services.probeTimeoutMs,
        fetch: ctx.services.fetch,
      });
      const tested = result.tested ? ", tested by the app" : "";
      ctx.say(`${label}: connection ${result.action} (id ${result.id}${tested})${result.note ? `; ${result.note}` : ""}`);
    } catch (error) {
      failed++;
      if (error instanceof ArrTestFailedError) {
        ctx.say(`${label}: the app's test of ${redactedUrl(webhookUrl)} failed, nothing saved:`);
        for (const reason of error.reasons) ctx.say(`  - ${reason}`);
      } else {
        ctx.say(`${label}: not connected: ${messageOf(error)}`);
      }
    }
  }
  return failed;
}

/** The webhook URL without its last segment (SERVER_PASS). */
function redactedUrl(url: string): string {
  return url.replace(/\/[^/]*$/, "/****");
}
