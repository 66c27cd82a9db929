import os from "node:os";
import { existsSync } from "node:fs";
import type { DriveAuth } from "../auth/drive-auth.js";
import { reconnectRemote } from "../auth/errors.js";
import type { Config } from "../config/types.js";
import { UserError } from "../domain.js";
import type { CryptFolder, NameDecoder, RemoteView } from "../drive/remote-view.js";
import { messageOf } from "../lib/errors.js";
import type { Logger } from "../lib/logger.js";
import { resolveRcloneConfigPath } from "./conf-path.js";
import { createNameCipher, cryptOptionsFromRemote } from "./crypt/index.js";
import {
  findRemote,
  parseRemoteSpec,
  readRcloneRemotes,
  resolveDriveRemote,
  type DriveRemote,
  type RcloneRemotes,
} from "./drive-remote.js";
import { loadRemoteAuth } from "./remote-auth.js";

export interface RemoteMonitoringInput {
  config: Config;
  /** RCLONE_CONFIG and RCLONE_CONFIG_PASS, and `$VAR`s in a service_account_file; given by the command, never read here. */
  env: NodeJS.ProcessEnv;
  /** scanarr's store for the remote's refreshed tokens. */
  tokenFile: string;
  logger: Logger;
}

/** What CLOUD.RCLONE_REMOTE and RCLONE.CRYPT_MAPPINGS add to drive monitoring. */
export interface RemoteMonitoring {
  /** The remote's credentials; undefined without CLOUD.RCLONE_REMOTE (CLOUD's own client or service account then). */
  auth: DriveAuth | undefined;
  /** undefined when neither key is set: the monitor reads Drive as it always has. */
  view: RemoteView | undefined;
  remote: DriveRemote | undefined;
  configFile: string | undefined;
}

/** RCLONE.CONFIG, else RCLONE_CONFIG, else where rclone itself looks. */
export function rcloneConfigFile(config: Config, env: NodeJS.ProcessEnv): string {
  if (config.RCLONE.CONFIG) return config.RCLONE.CONFIG;
  return resolveRcloneConfigPath({ env, home: os.homedir(), platform: process.platform, exists: existsSync }).file;
}

/** Whether the config asks for anything from rclone.conf. */
export function usesRcloneConfig(config: Config): boolean {
  return config.CLOUD.RCLONE_REMOTE !== "" || Object.keys(config.RCLONE.CRYPT_MAPPINGS).length > 0;
}

/** Reads rclone.conf (never writes it) and builds the remote's credentials and view. */
export async function loadRemoteMonitoring(input: RemoteMonitoringInput): Promise<RemoteMonitoring> {
  const { config, env } = input;
  if (!usesRcloneConfig(config)) return { auth: undefined, view: undefined, remote: undefined, configFile: undefined };
  const configFile = rcloneConfigFile(config, env);
  const remotes = await readRcloneRemotes(configFile, env.RCLONE_CONFIG_PASS);
  const remote = config.CLOUD.RCLONE_REMOTE ? resolveDriveRemote(config.CLOUD.RCLONE_REMOTE, remotes) : undefined;
  const view = buildView(remote, config.RCLONE.CRYPT_MAPPINGS, remotes);
  const auth = remote
    ? await loadRemoteAuth({ remote, tokenUrl: config.CLOUD.TOKEN_URL, tokenFile: input.tokenFile, env, logger: input.logger })
    : undefined;
  return { auth, view, remote, configFile };
}

/** The remote's drive, folder and crypt names, and the CRYPT_MAPPINGS folders. */
export function buildView(remote: DriveRemote | undefined, cryptMappings: Record<string, string[]>, remotes: RcloneRemotes): RemoteView {
  const crypt: CryptFolder[] = Object.entries(cryptMappings).map(([prefix, specs]) => {
    const what = `RCLONE.CRYPT_MAPPINGS["${prefix}"]`;
    const name = parseRemoteSpec(specs[0] ?? "", what).name;
    return { at: prefix, decoder: decoderOf(name, findRemote(remotes, name, what), what), remote: name };
  });
  if (!remote) return { logs: undefined, scope: undefined, crypt };
  const teamDrive = remote.section.team_drive ?? "";
  const rootFolderId = remote.section.root_folder_id || undefined;
  if (remote.crypt) {
    const what = `CLOUD.RCLONE_REMOTE: crypt remote "${remote.crypt.name}"`;
    crypt.push({
      at: { rootFolderId, names: remote.folder },
      decoder: decoderOf(remote.crypt.name, remote.crypt.section, what),
      remote: remote.crypt.name,
    });
  }
  return {
    logs: teamDrive
      ? { myDrive: false, sharedDrives: [teamDrive], namedBy: `rclone remote "${remote.name}"'s team_drive` }
      : { myDrive: true, sharedDrives: [] },
    scope: { rootFolderId, names: [...remote.folder, ...(remote.crypt?.within ?? [])] },
    crypt,
    authorizeAgain: reconnectRemote(remote.name),
  };
}

function decoderOf(name: string, section: Record<string, string>, what: string): NameDecoder {
  if (section.type !== "crypt") throw new UserError(`${what}: remote "${name}" is of type "${section.type ?? "?"}", not crypt.`, 2);
  try {
    return createNameCipher(cryptOptionsFromRemote(section));
  } catch (error) {
    throw new UserError(`${what}: cannot read the crypt remote "${name}": ${messageOf(error)}`, 2);
  }
}
