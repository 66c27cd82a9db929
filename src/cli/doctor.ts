import { DOCTOR_CHECKS } from "../doctor/checks.js";
import { memoLibraries, runChecks } from "../doctor/run.js";
import { buildTargets } from "../targets/build-targets.js";
import type { CommandContext } from "./context.js";
import { paint, writeLine } from "./output.js";

export interface DoctorOptions {
  json?: boolean;
}

/** `scanarr doctor`: one pass/fail line per check; exit 0 when all pass, 1 otherwise. */
export async function run(options: DoctorOptions, ctx: CommandContext): Promise<number> {
  // The targets serve would deliver to, built the same way; nothing is contacted before the checks ask.
  const targets = await buildTargets(ctx.config, { logger: ctx.logger, env: ctx.env });
  const results = await runChecks(DOCTOR_CHECKS, {
    config: ctx.config,
    paths: ctx.paths,
    env: ctx.env,
    unmet: ctx.unmet ?? [],
    fromEnv: ctx.configSources?.settings ?? [],
    targets,
    libraries: memoLibraries(targets),
  });
  const failed = results.filter((r) => !r.ok).length;
  if (options.json) {
    writeLine(ctx.stdout, JSON.stringify({ ok: failed === 0, checks: results }, null, 2));
    return failed === 0 ? 0 : 1;
  }
  const c = paint(ctx.color);
  const width = Math.max(...results.map((r) => r.name.length));
  for (const r of results) {
    writeLine(ctx.stdout, `${r.ok ? c.green("pass") : c.red("FAIL")}  ${r.name.padEnd(width)}  ${r.detail}`);
  }
  writeLine(ctx.stdout);
  writeLine(
    ctx.stdout,
    failed === 0 ? c.green(`all ${results.length} checks passed`) : c.red(`${failed} of ${results.length} checks failed`),
  );
  return failed === 0 ? 0 : 1;
}
