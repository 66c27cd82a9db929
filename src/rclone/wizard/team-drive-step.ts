import { readAccessToken } from "../token.js";
import { askChoice, askValue, askYesNo } from "./ask.js";
import type { Context } from "./context.js";
import type { DriveOptions } from "./drive-options.js";

type Step = Pick<Context, "prompt" | "print" | "flags" | "listSharedDrives">;

/** Step 11: the shared-drive question and, on yes, the list from drives.list. */
export async function askTeamDrive(ctx: Step, options: DriveOptions): Promise<void> {
  if (ctx.flags.teamDrive !== undefined) {
    setTeamDrive(options, ctx.flags.teamDrive);
    return;
  }
  const current = options.get("team_drive") ?? "";
  const title = current
    ? `\nChange current Shared Drive (Team Drive) ID "${current}"?\n`
    : "\nConfigure this as a Shared Drive (Team Drive)?\n";
  if (!(await askYesNo(ctx, title, false))) {
    if (!current) options.set("team_drive", "");
    return;
  }
  const id = await chooseSharedDrive(ctx, options);
  setTeamDrive(options, id);
}

function setTeamDrive(options: DriveOptions, id: string): void {
  options.set("team_drive", id);
  // A shared drive is its own root; a leftover root_folder_id would point elsewhere.
  if (id !== "") options.set("root_folder_id", "");
}

async function chooseSharedDrive(ctx: Step, options: DriveOptions): Promise<string> {
  let drives: Awaited<ReturnType<Step["listSharedDrives"]>>;
  try {
    const token = options.get("token");
    drives = await ctx.listSharedDrives({
      token: token ? readAccessToken(token) : undefined,
      serviceAccountFile: options.get("service_account_file") || undefined,
      scope: options.get("scope") ?? "drive",
    });
  } catch (error) {
    ctx.print(`Could not list the shared drives: ${(error as Error).message}\n`);
    return askValue(ctx, "config_team_drive", "Shared Drive ID (as shown in the drive's web address).", { required: true });
  }
  if (drives.length === 0) {
    ctx.print("No Shared Drives found in your account\n");
    return "";
  }
  const choices = drives.map((drive) => ({ value: drive.id, help: [drive.name] }));
  return askChoice(ctx, "config_team_drive", "Shared Drive", choices, { default: drives[0]!.id, required: true, allowOther: true });
}
