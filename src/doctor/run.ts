import { secretValuesOf } from "../config/secrets.js";
import type { Config } from "../config/types.js";
import { resolveTargets, type ResolvedTarget } from "../paths/trace.js";
import type { CheckResult, DoctorCheck, DoctorContext } from "./types.js";
import { messageOf } from "../lib/errors.js";
import { createSecretMasker } from "../lib/mask.js";

/** The context's shared library lookup: the first caller reads, the others wait for the same answer. */
export function memoLibraries(targets: DoctorContext["targets"]): () => Promise<ResolvedTarget[]> {
  let pending: Promise<ResolvedTarget[]> | undefined;
  return () => {
    pending ??= resolveTargets(targets);
    return pending;
  };
}

/**
 * Runs every check at once and returns their lines in the checks' order. A
 * check that throws becomes a failed line; no detail leaves with a secret of
 * the config in it, whatever a check wrote.
 */
export async function runChecks(checks: readonly DoctorCheck[], ctx: DoctorContext): Promise<CheckResult[]> {
  const settled = await Promise.all(
    checks.map(async (check): Promise<CheckResult[]> => {
      try {
        return await check.run(ctx);
      } catch (error) {
        return [{ name: check.name, ok: false, detail: `the check itself failed: ${messageOf(error)}` }];
      }
    }),
  );
  const redact = redactor(ctx.config);
  return settled.flat().map((r) => ({ ...r, detail: redact(r.detail) }));
}

function redactor(config: Config): (text: string) => string {
  return createSecretMasker(secretValuesOf(config), "[redacted]");
}
