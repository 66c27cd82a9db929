import { UserError } from "../../domain.js";
import { checkRemoteName } from "../conf-rules.js";
import type { Context } from "./context.js";
import { createRemote, listRemotes, runMenus } from "./remotes-menu.js";

/**
 * The whole dialogue. With a name (argument or flag) it starts at the new
 * remote; interactively it then continues to the remotes menu until `q`.
 */
export async function runRemoteWizard(ctx: Context): Promise<void> {
  const name = ctx.flags.name;
  if (name !== undefined) {
    const reason = checkRemoteName(name, listRemotes(ctx), ctx.platform);
    if (reason) throw new UserError(reason, 2);
    await createRemote(ctx, name);
  } else if (!ctx.interactive) {
    throw new UserError("a remote name is required with --non-interactive", 2);
  }
  if (ctx.interactive) await runMenus(ctx);
}
