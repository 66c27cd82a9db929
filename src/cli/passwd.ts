import { readTextFile } from "../lib/text-file.js";
import { hashPassword } from "../auth/password-hash.js";
import { setTopLevelStrings } from "../config/json-edit.js";
import { UserError } from "../domain.js";
import { writeFileAtomic } from "../lib/atomic-write.js";
import { createLinePrompt } from "../rclone/wizard/line-prompt.js";
import { PromptInterruptedError } from "../rclone/wizard/prompt.js";
import type { CommandContext } from "./context.js";

export interface PasswdOptions {
  username?: string;
  clear?: boolean;
}

/**
 * `scanarr passwd`: sets the login of /triggers/* (HTTP Basic) and the
 * dashboard. The password is read without echo on a terminal (twice), or as
 * the first line of standard input otherwise; only its argon2id hash is
 * written, into the config file, changing nothing else in it.
 */
export async function run(options: PasswdOptions, ctx: CommandContext): Promise<number> {
  const file = ctx.paths.configFile;
  const fromEnv = (key: string) => ctx.configSources?.settings.find((setting) => setting.path === key)?.variable;
  const write = async (values: Record<string, string>) => {
    await save(file, values);
    for (const key of Object.keys(values)) {
      const variable = fromEnv(key);
      if (variable) ctx.stderr.write(`note: ${variable} sets ${key} over the file; unset it for the file's value to count\n`);
    }
  };
  if (options.clear) {
    await write({ SERVER_USERNAME: "", SERVER_PASSWORD_HASH: "" });
    ctx.stdout.write(`Login removed from ${file}; restart scanarr serve to apply it.\n`);
    return 0;
  }
  const username = options.username ?? ctx.config.SERVER_USERNAME;
  if (username === "") throw new UserError("name the login with --username <name> (no login is configured yet)", 2);
  if (username.includes(":")) throw new UserError("--username: must not contain a colon (HTTP Basic cannot carry it)", 2);
  let password: string;
  try {
    password = await readPassword(ctx);
  } catch (error) {
    if (!(error instanceof PromptInterruptedError)) throw error;
    ctx.stderr.write(`${error.message}: ${file} left unchanged\n`);
    return error.reason === "interrupt" ? 130 : 1;
  }
  if (password === "") throw new UserError("the password is empty; nothing changed", 2);
  const hash = await hashPassword(password);
  // A username the environment gives stays there: only what was typed is written into the file.
  await write(
    options.username === undefined && fromEnv("SERVER_USERNAME")
      ? { SERVER_PASSWORD_HASH: hash }
      : { SERVER_USERNAME: username, SERVER_PASSWORD_HASH: hash },
  );
  ctx.stdout.write(`Login for ${username} saved in ${file} (argon2id hash); restart scanarr serve to use it.\n`);
  return 0;
}

async function readPassword(ctx: CommandContext): Promise<string> {
  const terminal = Boolean((ctx.stdin as { isTTY?: boolean }).isTTY);
  const prompt = createLinePrompt(ctx.stdin, terminal ? ctx.stdout : ctx.stderr, ctx.signal);
  try {
    const first = await prompt.ask({ message: "New password: ", secret: true });
    if (!terminal) return first;
    const again = await prompt.ask({ message: "Repeat it: ", secret: true });
    if (again !== first) throw new UserError("the two passwords differ; nothing changed", 1);
    return first;
  } finally {
    prompt.close();
  }
}

async function save(file: string, values: Record<string, string>): Promise<void> {
  const text = await readTextFile(file);
  await writeFileAtomic(file, setTopLevelStrings(text, values), { mode: 0o600, forceMode: true });
}
