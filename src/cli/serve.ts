import { hostname } from "node:os";
import { UserError } from "../domain.js";
import { systemClock } from "../lib/clock.js";
import { maskSecret } from "../lib/mask.js";
import { startService } from "../serve/service.js";
import { nextStepCommand } from "./command-line.js";
import type { CommandContext } from "./context.js";
import { withoutConfigVariables } from "../config/env-overlay.js";

/** `scanarr serve`: runs until SIGINT/SIGTERM, then shuts down cleanly and exits 0. */
export async function run(_options: unknown, ctx: CommandContext): Promise<number> {
  const { config, logger } = ctx;
  let service: Awaited<ReturnType<typeof startService>>;
  try {
    service = await startService({ config, paths: ctx.paths, logger, clock: systemClock, env: withoutConfigVariables(ctx.env) });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE")
      throw new UserError(
        `${config.SERVER_IP}:${config.SERVER_PORT} is already in use; another scanarr or plex_autoscan may be running (change SERVER_PORT)`,
        1,
      );
    if (code === "EADDRNOTAVAIL") throw new UserError(`SERVER_IP ${config.SERVER_IP} is not an address of this machine`, 1);
    throw error;
  }
  const shownHost = service.host === "0.0.0.0" || service.host === "::" ? hostname() : service.host;
  const manual = `http://${shownHost}:${service.port}/${maskSecret(config.SERVER_PASS)}`;
  const fromEnv = ctx.configSources?.settings ?? [];
  const passFrom = fromEnv.find((s) => s.path === "SERVER_PASS")?.variable ?? `SERVER_PASS in ${ctx.paths.configFile}`;
  logger.info(
    { address: `${service.host}:${service.port}`, port: service.port, data: ctx.paths.database },
    `listening on http://${service.host}:${service.port}`,
  );
  logger.info(
    { manualScans: config.SERVER_ALLOW_MANUAL_SCAN, targets: config.TARGETS.filter((t) => t.ENABLED).map((t) => t.NAME) },
    `webhook and manual scan URL: ${manual} (the pass is masked; see ${passFrom})`,
  );
  if (fromEnv.length > 0) {
    const keys = fromEnv.map((s) => `${s.path} (${s.variable})`);
    logger.info({ fromEnv: keys }, `config from the environment, over the file: ${keys.join(", ")}`);
  }
  const unmet = ctx.unmet ?? [];
  if (unmet.length > 0) {
    logger.warn(
      { unmet },
      `set-up not finished: ${unmet.join("; ")}. Requests are accepted and queued; run \`${nextStepCommand(ctx)} setup\` to finish the set-up (or edit ${ctx.paths.configFile}), then restart serve`,
    );
  }
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    else ctx.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  logger.info("stopping: no new requests; finishing deliveries in flight");
  await service.stop();
  logger.info("stopped");
  return 0;
}
