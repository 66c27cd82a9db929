import { existsSync } from "node:fs";
import { UserError } from "../../domain.js";
import { expandPath } from "../service-account.js";
import { askChoice, askValue, askYesNo, type Choice } from "./ask.js";
import type { Context } from "./context.js";

/*
 * The drive questions before authorization, in the order of the spec:
 * Storage, client_id, client_secret, scope, root_folder_id,
 * service_account_file, advanced. Each one is skipped when its flag is set.
 */

/** Options of a drive remote being built, in the order rclone writes them. */
export type DriveOptions = Map<string, string>;

export const SCOPES: Choice[] = [
  { value: "drive", help: ["Full access all files, excluding Application Data Folder."] },
  { value: "drive.readonly", help: ["Read-only access to file metadata and file contents."] },
  {
    value: "drive.file",
    help: [
      "Access to files created by rclone only.",
      "These are visible in the drive website.",
      "File authorization is revoked when the user deauthorizes the app.",
    ],
  },
  {
    value: "drive.appfolder",
    help: ["Allows read and write access to the Application Data folder.", "This is not visible in the drive website."],
  },
  {
    value: "drive.metadata.readonly",
    help: ["Allows read-only access to file metadata but", "does not allow any access to read or download file content."],
  },
];

type Step = Pick<Context, "prompt" | "print" | "flags">;

export async function askStorage(ctx: Pick<Context, "prompt" | "print">): Promise<void> {
  await askChoice(ctx, "Storage", "Type of storage to configure.", [{ value: "drive", help: ["Google Drive"] }], {
    default: "drive",
    allowOther: true,
    validate: (answer) => (answer === "drive" ? undefined : "scanarr creates Google Drive remotes; use `rclone config` for other storage."),
  });
}

export async function askClient(ctx: Step, options: DriveOptions): Promise<void> {
  const clientId =
    ctx.flags.clientId ??
    (await askValue(
      ctx,
      "client_id",
      "Google Application Client Id\nSetting your own is recommended.\nSee https://rclone.org/drive/#making-your-own-client-id for how to create your own.",
      { default: options.get("client_id") ?? "", flag: "client-id" },
    ));
  if (clientId === "") {
    ctx.print(
      "\nNo client_id: rclone's shared key will be used. It is shared by every rclone user, performs poorly\n" +
        "(rate limits), and rclone is retiring it during 2026. Create your own Desktop-app client id:\n" +
        "https://rclone.org/drive/#making-your-own-client-id\n",
    );
  }
  setOrKeep(options, "client_id", clientId);
  const secret =
    ctx.flags.clientSecret ??
    (await askValue(ctx, "client_secret", "OAuth Client Secret.\nLeave blank normally.", {
      default: options.get("client_secret") ?? "",
      flag: "client-secret",
    }));
  setOrKeep(options, "client_secret", secret);
}

export async function askScope(ctx: Step, options: DriveOptions): Promise<void> {
  const flag = ctx.flags.scope;
  const values = SCOPES.map((scope) => scope.value);
  if (flag !== undefined && !values.includes(flag)) throw new UserError(`--scope must be one of ${values.join(", ")}`, 2);
  const scope =
    flag ??
    (await askChoice(ctx, "scope", "Scope that rclone should use when requesting access from drive.", SCOPES, {
      default: options.get("scope") || "drive",
      flag: "scope",
    }));
  options.set("scope", scope);
}

export async function askRootFolder(ctx: Step, options: DriveOptions): Promise<void> {
  const appfolder = options.get("scope") === "drive.appfolder";
  const current = options.get("root_folder_id") || (appfolder ? "appDataFolder" : "");
  const id =
    ctx.flags.rootFolderId ??
    (await askValue(
      ctx,
      "root_folder_id",
      'ID of the root folder.\nLeave blank normally.\nFill in to access "Computers" folders or to start from a folder other than the root.',
      { default: current, flag: "root-folder-id" },
    ));
  setOrKeep(options, "root_folder_id", id);
}

export async function askServiceAccount(
  ctx: Pick<Context, "prompt" | "print" | "flags" | "env" | "home" | "configDir">,
  options: DriveOptions,
): Promise<void> {
  const env = { ...ctx.env, RCLONE_CONFIG_DIR: ctx.configDir };
  const check = (file: string) =>
    file === "" || existsSync(expandPath(file, env, ctx.home)) ? undefined : `File not found: ${expandPath(file, env, ctx.home)}`;
  const flag = ctx.flags.serviceAccountFile;
  if (flag !== undefined) {
    const reason = check(flag);
    if (reason) throw new UserError(`--service-account-file: ${reason}`, 2);
  }
  const file =
    flag ??
    (await askValue(
      ctx,
      "service_account_file",
      "Service Account Credentials JSON file path.\nLeave blank normally.\nNeeded only if you want use SA instead of interactive login.\nLeading `~` will be expanded in the file name as will environment variables such as `${RCLONE_CONFIG_DIR}`.",
      { default: options.get("service_account_file") ?? "", flag: "service-account-file", validate: check },
    ));
  setOrKeep(options, "service_account_file", file);
}

/** Advanced options scanarr offers: the OAuth endpoints (for a custom or test endpoint). */
export async function askAdvanced(ctx: Pick<Context, "prompt" | "print">, options: DriveOptions): Promise<void> {
  if (!(await askYesNo(ctx, "\nEdit advanced config?", false))) return;
  const authUrl = await askValue(ctx, "auth_url", "Auth server URL.\nLeave blank to use the provider defaults.", {
    default: options.get("auth_url") ?? "",
  });
  setOrKeep(options, "auth_url", authUrl);
  const tokenUrl = await askValue(ctx, "token_url", "Token server url.\nLeave blank to use the provider defaults.", {
    default: options.get("token_url") ?? "",
  });
  setOrKeep(options, "token_url", tokenUrl);
}

/** Stores a value; a blank one is stored only when the key is already in the remote. */
export function setOrKeep(options: DriveOptions, key: string, value: string): void {
  if (value !== "" || options.has(key)) options.set(key, value);
}
