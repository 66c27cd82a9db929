/** RUN_COMMAND_BEFORE_SCAN / RUN_COMMAND_AFTER_SCAN as written in the config. */
export type HookSetting = string | readonly string[];

/** An executable and its arguments; `display` names it in logs without its arguments, which may hold a secret (a webhook URL). */
export interface HookCommand {
  file: string;
  args: string[];
  display: string;
}

/**
 * The command a setting runs, or undefined when none is set. A string is
 * plex_autoscan's form and runs as `/bin/sh -c <string>`: the string is the
 * user's own script, run as written; scanarr never adds anything to it, so
 * the facts of a scan (a folder named `$(rm -rf ~)` included) reach it only
 * through environment variables. An array runs its first element with the
 * rest as arguments, without any shell.
 */
export function toHookCommand(setting: HookSetting): HookCommand | undefined {
  if (typeof setting === "string") {
    if (setting.trim() === "") return undefined;
    return { file: "/bin/sh", args: ["-c", setting], display: "/bin/sh -c …" };
  }
  const [file, ...args] = setting;
  if (file === undefined || file.trim() === "") return undefined;
  return { file, args: [...args], display: args.length > 0 ? `${file} …` : file };
}
