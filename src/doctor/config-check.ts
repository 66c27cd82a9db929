import type { DoctorCheck } from "./types.js";

/** The config problems the loader let through for `doctor` (an empty PLEX_TOKEN, a missing SERVER_PASS): serve would refuse them. */
export const configCheck: DoctorCheck = {
  name: "config",
  async run(ctx) {
    if (ctx.unmet.length === 0) return [{ name: "config", ok: true, detail: `${ctx.paths.configFile} is valid` }];
    return ctx.unmet.map((problem) => ({ name: "config", ok: false, detail: problem }));
  },
};
