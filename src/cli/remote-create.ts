import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { InterruptedError, UserError } from "../domain.js";
import { ConfigCryptError, isEncryptedConfig } from "../rclone/config-crypt.js";
import { ConfParseError } from "../rclone/conf-document.js";
import { InMemoryConfigError, resolveRcloneConfigPath } from "../rclone/conf-path.js";
import { checkConfValue } from "../rclone/conf-rules.js";
import { loadConf, readConfText, saveConf, type LoadedConf } from "../rclone/conf-store.js";
import { expandPath, expandScopes, fetchServiceAccountToken } from "../rclone/service-account.js";
import { listSharedDrives } from "../rclone/shared-drives.js";
import type { Context, SharedDriveAuth } from "../rclone/wizard/context.js";
import { createLinePrompt } from "../rclone/wizard/line-prompt.js";
import { createNonInteractivePrompt, PromptInterruptedError, type Prompt } from "../rclone/wizard/prompt.js";
import { runRemoteWizard } from "../rclone/wizard/run-wizard.js";
import type { CommandContext } from "./context.js";
import { snapshotRemotes, watchHint } from "./remote-watch-hint.js";
import { withoutConfigVariables } from "../config/env-overlay.js";

export interface RemoteCreateOptions {
  /** The positional [name]. */
  name?: string;
  rcloneConfig?: string;
  nonInteractive?: boolean;
  scope?: string;
  token?: string;
  serviceAccountFile?: string;
  teamDrive?: string;
  clientId?: string;
  clientSecret?: string;
  rootFolderId?: string;
}

/** `scanarr remote create [name]`: rclone's drive remote wizard, writing rclone.conf. */
export async function run(options: RemoteCreateOptions, ctx: CommandContext): Promise<number> {
  checkFlagValues(options);
  const interactive = !options.nonInteractive;
  const prompt = interactive ? createLinePrompt(ctx.stdin, ctx.stdout, ctx.signal) : undefined;
  try {
    const file = findConfigFile(options, ctx);
    const loaded = await openConf(file, prompt, ctx);
    const wizard = buildContext(options, ctx, loaded, prompt ?? createNonInteractivePrompt());
    const before = snapshotRemotes(wizard.doc);
    await runRemoteWizard(wizard);
    const wrote = await saveConf(loaded, wizard.doc, wizard.password);
    ctx.stdout.write(wrote ? `Saved ${file}\n` : `Nothing changed in ${file}\n`);
    const hint = wrote ? watchHint(before, wizard.doc, file, options.rcloneConfig !== undefined) : undefined;
    if (hint) ctx.stdout.write(`${hint}\n`);
    return 0;
  } catch (error) {
    if (error instanceof PromptInterruptedError) {
      const message = `${error.message}: rclone config left unchanged`;
      throw error.reason === "interrupt" ? new InterruptedError(message) : new UserError(message, 1);
    }
    throw error;
  } finally {
    prompt?.close();
  }
}

function checkFlagValues(options: RemoteCreateOptions): void {
  const flags: Array<[string, string | undefined]> = [
    ["client-id", options.clientId],
    ["client-secret", options.clientSecret],
    ["service-account-file", options.serviceAccountFile],
    ["team-drive", options.teamDrive],
    ["root-folder-id", options.rootFolderId],
  ];
  for (const [flag, value] of flags) {
    const reason = value === undefined ? undefined : checkConfValue(value);
    if (reason) throw new UserError(`--${flag}: ${reason}`, 2);
  }
}

function findConfigFile(options: RemoteCreateOptions, ctx: CommandContext): string {
  try {
    return resolveRcloneConfigPath({
      flag: options.rcloneConfig,
      env: ctx.env,
      home: ctx.env.HOME ?? os.homedir(),
      platform: process.platform,
      rcloneDir: findRcloneDir(ctx.env.PATH ?? ""),
      exists: existsSync,
    }).file;
  } catch (error) {
    if (error instanceof InMemoryConfigError) throw new UserError(error.message, 2);
    throw error;
  }
}

function findRcloneDir(searchPath: string): string | undefined {
  return searchPath.split(path.delimiter).find((dir) => dir !== "" && existsSync(path.join(dir, "rclone")));
}

/** Loads rclone.conf, asking for the configuration password when RCLONE_CONFIG_PASS does not open it. */
async function openConf(file: string, prompt: Prompt | undefined, ctx: CommandContext): Promise<LoadedConf> {
  const text = await readConfText(file);
  try {
    if (text === undefined || !isEncryptedConfig(text)) return loadConf(file, text);
    let password = ctx.env.RCLONE_CONFIG_PASS;
    for (let attempt = 0; ; attempt++) {
      if (password !== undefined) {
        try {
          return loadConf(file, text, password);
        } catch (error) {
          if (!(error instanceof ConfigCryptError) || !prompt || attempt >= 3) throw error;
          ctx.stderr.write("Couldn't decrypt configuration, most likely wrong password.\n");
        }
      }
      if (!prompt) throw new UserError(`${file} is encrypted: set RCLONE_CONFIG_PASS to its configuration password`, 2);
      ctx.stdout.write("Enter configuration password:\n");
      password = await prompt.ask({ message: "password:", secret: true });
    }
  } catch (error) {
    if (error instanceof ConfParseError || error instanceof ConfigCryptError) {
      throw new UserError(`Failed to load config file "${file}": ${error.message}`, 1);
    }
    throw error;
  }
}

function buildContext(options: RemoteCreateOptions, ctx: CommandContext, loaded: LoadedConf, prompt: Prompt): Context {
  const interactive = !options.nonInteractive;
  const apiUrl = ctx.config.CLOUD.API_URL;
  const env = { ...withoutConfigVariables(ctx.env), RCLONE_CONFIG_DIR: path.dirname(loaded.file) };
  const home = ctx.env.HOME ?? os.homedir();
  return {
    prompt,
    print: interactive ? (text) => ctx.stdout.write(text) : () => undefined,
    interactive,
    doc: loaded.doc,
    password: loaded.password,
    flags: {
      name: options.name,
      scope: options.scope,
      token: options.token,
      serviceAccountFile: options.serviceAccountFile,
      teamDrive: options.teamDrive,
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      rootFolderId: options.rootFolderId,
    },
    env: ctx.env,
    home,
    platform: process.platform,
    configDir: path.dirname(loaded.file),
    runAuthorize: async (args) => {
      const result = await execa("rclone", ["authorize", ...args], {
        env,
        stdin: "ignore",
        stderr: "inherit",
        reject: false,
        cancelSignal: ctx.signal,
      });
      if (result.exitCode !== 0) throw new Error(`rclone authorize exited with code ${String(result.exitCode)}`);
      return String(result.stdout);
    },
    listSharedDrives: async (auth: SharedDriveAuth) => {
      if (auth.token) return listSharedDrives(apiUrl, auth.token);
      if (!auth.serviceAccountFile) throw new Error("no token to list shared drives with");
      const token = await fetchServiceAccountToken(expandPath(auth.serviceAccountFile, env, home), expandScopes(auth.scope));
      return listSharedDrives(apiUrl, token);
    },
    generatePassword: (bits) => randomBytes(Math.ceil(bits / 8)).toString("base64url"),
  };
}
