import { ArrTestFailedError, connectArr, ARR_KIND_INFO, type ArrApp } from "../arr/index.js";
import { messageOf } from "../lib/errors.js";
import type { ArrChoice } from "./arr-step.js";
import type { SetupContext } from "./context.js";

type ConnectContext = Pick<SetupContext, "prompt" | "say" | "interactive" | "flags" | "services">;

/**
 * Step 5: each app gets one Webhook connection to scanarr with its
 * file-changing events (created, updated, or left as it is). When scanarr
 * answers at the URL the app's own test proves it; when it does not, the
 * connection is saved untested and the user is told. Returns the apps
 * connected and how many could not be.
 */
export async function connectApps(
  ctx: ConnectContext,
  apps: readonly ArrChoice[],
  webhookUrl: string,
  scanarrRunning: boolean,
): Promise<{ connected: ArrApp[]; failed: number }> {
  const connected: ArrApp[] = [];
  if (apps.length === 0) return { connected, failed: 0 };
  ctx.say();
  ctx.say(
    scanarrRunning
      ? "scanarr answers: each app tests the webhook before saving it."
      : "scanarr is not running: the connections are saved without the apps' test.",
  );
  const chosen = ctx.flags.yes
    ? apps
    : await ctx.prompt.checkbox({
        message: "Connect these apps to scanarr? (space toggles, enter confirms)",
        choices: apps.map((a) => ({
          name: `${a.label} at ${a.app.url} (events: ${ARR_KIND_INFO[a.app.kind].fileEvents.join(", ")})`,
          value: a,
          checked: true,
        })),
        flag: "--yes",
      });
  let failed = 0;
  for (const { app, label } of chosen) {
    try {
      const result = await connectArr(app, {
        webhookUrl,
        test: scanarrRunning,
        timeoutMs: ctx.services.probeTimeoutMs,
        fetch: ctx.services.fetch,
      });
      connected.push(app);
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
  return { connected, failed };
}

/** The webhook URL without its last segment (SERVER_PASS). */
function redactedUrl(url: string): string {
  return url.replace(/\/[^/]*$/, "/****");
}
