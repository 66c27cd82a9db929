import type { CheckResult, DoctorCheck } from "./types.js";

/**
 * The config problems the loader let through for `doctor` (an empty
 * PLEX_TOKEN, a missing SERVER_PASS): serve would refuse them. And which keys
 * SCANARR_ variables set, since the file alone no longer tells.
 */
export const configCheck: DoctorCheck = {
  name: "config",
  async run(ctx) {
    const fromEnv = ctx.fromEnv ?? [];
    const results: CheckResult[] =
      ctx.unmet.length === 0
        ? [{ name: "config", ok: true, detail: `${ctx.paths.configFile} is valid` }]
        : ctx.unmet.map((problem) => ({ name: "config", ok: false, detail: problem }));
    if (fromEnv.length > 0) {
      const keys = fromEnv.map((setting) => `${setting.path} (${setting.variable})`).join(", ");
      results.push({ name: "config", ok: true, detail: `from the environment, over the file: ${keys}` });
    }
    return results;
  },
};
