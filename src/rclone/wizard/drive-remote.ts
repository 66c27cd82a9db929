import { shortenToken } from "../token.js";
import { askLetter } from "./ask.js";
import type { Context } from "./context.js";
import { askAdvanced, askClient, askRootFolder, askScope, askServiceAccount, askStorage, type DriveOptions } from "./drive-options.js";
import { askTeamDrive } from "./team-drive-step.js";
import { obtainToken } from "./token-step.js";

export type DriveStepContext = Pick<
  Context,
  "prompt" | "print" | "flags" | "interactive" | "env" | "home" | "configDir" | "runAuthorize" | "listSharedDrives"
>;

/**
 * Steps 3-11 for one drive remote. `current` holds the remote's values when
 * editing; they become the defaults. Returns the options in rclone's order.
 */
export async function configureDriveRemote(ctx: DriveStepContext, current: Map<string, string> = new Map()): Promise<DriveOptions> {
  const options: DriveOptions = new Map(current);
  options.set("type", "drive");
  if (current.size === 0) await askStorage(ctx);
  await askClient(ctx, options);
  await askScope(ctx, options);
  await askRootFolder(ctx, options);
  await askServiceAccount(ctx, options);
  await askAdvanced(ctx, options);
  if (!options.get("service_account_file")) await obtainToken(ctx, options);
  await askTeamDrive(ctx, options);
  return orderOptions(options);
}

/** type first, then the options in the order rclone's wizard sets them, then anything else. */
function orderOptions(options: DriveOptions): DriveOptions {
  const order = [
    "type",
    "client_id",
    "client_secret",
    "scope",
    "root_folder_id",
    "service_account_file",
    "auth_url",
    "token_url",
    "token",
    "team_drive",
  ];
  const sorted: DriveOptions = new Map();
  for (const key of order) if (options.has(key)) sorted.set(key, options.get(key)!);
  for (const [key, value] of options) if (!sorted.has(key)) sorted.set(key, value);
  return sorted;
}

/** Step 12: shows the options (token shortened) and asks y/e/d. */
export async function confirmRemote(
  ctx: Pick<Context, "prompt" | "print">,
  name: string,
  options: Map<string, string>,
): Promise<"y" | "e" | "d"> {
  const lines = [...options].map(
    ([key, value]) => `- ${key}: ${key === "token" ? shortenToken(value) : isSecret(key) ? "*** ENCRYPTED ***" : value}`,
  );
  ctx.print(`\nConfiguration complete.\nOptions:\n${lines.join("\n")}\n`);
  const answer = await askLetter(
    ctx,
    `Keep this "${name}" remote?`,
    [
      ["y", "Yes this is OK"],
      ["e", "Edit this remote"],
      ["d", "Delete this remote"],
    ],
    "y",
  );
  return answer as "y" | "e" | "d";
}

function isSecret(key: string): boolean {
  return key === "client_secret" || key === "password" || key === "password2";
}
