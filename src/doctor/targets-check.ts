import type { ResolvedTarget } from "../paths/trace.js";
import { describeLibraries } from "../paths/trace.js";
import type { CheckResult, DoctorCheck, DoctorTarget } from "./types.js";
import { messageOf } from "../lib/errors.js";

/** Every target answers, accepts its credentials and may scan (Plex: an admin's token). */
export const targetsCheck: DoctorCheck = {
  name: "targets",
  async run(ctx) {
    if (ctx.targets.length === 0) return [{ name: "targets", ok: false, detail: "no media server is configured" }];
    const resolved = await ctx.libraries();
    return Promise.all(ctx.targets.map((target, i) => checkTarget(target, resolved[i])));
  },
};

async function checkTarget({ target }: DoctorTarget, resolved: ResolvedTarget | undefined): Promise<CheckResult> {
  const name = `target ${target.name}`;
  const where = target.where ?? target.name;
  if (!resolved || !Array.isArray(resolved.libraries)) {
    return { name, ok: false, detail: resolved && !Array.isArray(resolved.libraries) ? resolved.libraries.error : "not checked" };
  }
  let proven = "";
  if (target.checkAccess) {
    try {
      proven = `, ${await target.checkAccess()}`;
    } catch (error) {
      return { name, ok: false, detail: `reachable, but ${messageOf(error)}` };
    }
  }
  const libraries = resolved.libraries;
  const count = libraries.length === 1 ? "1 library" : `${libraries.length} libraries`;
  if (libraries.length === 0) return { name, ok: false, detail: `reachable at ${where}${proven}, but it has no library to scan` };
  return { name, ok: true, detail: `reachable at ${where}${proven}; ${count}: ${describeLibraries(libraries)}` };
}
