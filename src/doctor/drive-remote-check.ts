import type { DriveAuth } from "../auth/drive-auth.js";
import { invalidGrantAdvice, reconnectRemote } from "../auth/errors.js";
import { createServiceAccountAuth } from "../auth/service-account.js";
import { verifyDriveAccess, verifyTokenRefresh } from "../auth/verify-access.js";
import type { Config } from "../config/types.js";
import { createDriveApi } from "../drive/client.js";
import type { NameDecoder } from "../drive/remote-view.js";
import type { DriveApi } from "../drive/types.js";
import { FOLDER_MIME } from "../drive/types.js";
import { messageOf } from "../lib/errors.js";
import { readRcloneRemotes, resolveDriveRemote, type DriveRemote } from "../rclone/drive-remote.js";
import { buildView, rcloneConfigFile } from "../rclone/monitor-remote.js";
import { remoteCredentials } from "../rclone/remote-auth.js";
import type { CheckResult } from "./types.js";

const NAME = "drive";
/** Names of the crypt folder tried; one that decodes proves the passwords. */
const SAMPLE = 100;

/**
 * CLOUD.RCLONE_REMOTE (and RCLONE.CRYPT_MAPPINGS): rclone.conf opens, the
 * remote is there and of a type that can be watched, its token refreshes
 * with its own client, Drive answers, and the crypt passwords decode a name
 * from its folder. Nothing is written: neither rclone.conf nor a token file.
 */
export async function checkDriveRemote(config: Config, env: NodeJS.ProcessEnv): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  const fail = (detail: string): CheckResult[] => [...results, { name: NAME, ok: false, detail }];
  const configFile = rcloneConfigFile(config, env);
  let remote: DriveRemote | undefined;
  let view: ReturnType<typeof buildView>;
  let remotes: Awaited<ReturnType<typeof readRcloneRemotes>> | undefined;
  try {
    remotes = await readRcloneRemotes(configFile, env.RCLONE_CONFIG_PASS);
    remote = config.CLOUD.RCLONE_REMOTE ? resolveDriveRemote(config.CLOUD.RCLONE_REMOTE, remotes) : undefined;
    view = buildView(remote, config.RCLONE.CRYPT_MAPPINGS, remotes);
  } catch (error) {
    return fail(messageOf(error));
  }
  // plex_autoscan's mode: name each crypt remote and what it is over, as rclone.conf says.
  for (const [prefix, specs] of Object.entries(config.RCLONE.CRYPT_MAPPINGS)) {
    const name = (specs[0] ?? "").replace(/:.*$/, "");
    const over = remotes?.get(name)?.remote;
    results.push({
      name: NAME,
      ok: true,
      detail: `RCLONE.CRYPT_MAPPINGS: drive paths under "${prefix}" are decoded with crypt remote "${name}"${over ? ` (over "${over}")` : ""}, found in ${configFile}`,
    });
  }
  if (!remote) return results;
  results.push({ name: NAME, ok: true, detail: `${describeRemote(remote)} found in ${configFile}` });

  let auth: DriveAuth;
  try {
    auth = await proveCredentials(remote, config, env);
  } catch (error) {
    return fail(messageOf(error));
  }
  results.push({
    name: NAME,
    ok: true,
    detail: remote.section.service_account_file
      ? `remote "${remote.name}"'s service account can read Google Drive`
      : `remote "${remote.name}"'s token refreshes with its own client id and Google Drive answers (rclone.conf is not written)`,
  });
  if (!remote.crypt) return results;
  const decoder = view.crypt.at(-1)!.decoder;
  try {
    results.push(await proveDecoding(remote, decoder, createDriveApi({ auth, apiUrl: config.CLOUD.API_URL }), config));
  } catch (error) {
    return fail(`cannot read the crypt folder: ${messageOf(error)}`);
  }
  return results;
}

function describeRemote(remote: DriveRemote): string {
  const folder = remote.folder.length ? `, folder "${remote.folder.join("/")}"` : "";
  const drive = `drive remote "${remote.name}"${folder}${remote.section.team_drive ? `, shared drive ${remote.section.team_drive}` : ""}`;
  return remote.crypt ? `crypt remote "${remote.crypt.name}" over ${drive}` : drive;
}

async function proveCredentials(remote: DriveRemote, config: Config, env: NodeJS.ProcessEnv): Promise<DriveAuth> {
  const credentials = remoteCredentials({ remote, tokenUrl: config.CLOUD.TOKEN_URL, env });
  if (credentials.kind === "service-account") {
    const account = await createServiceAccountAuth(credentials.file, config.CLOUD.TOKEN_URL);
    await verifyDriveAccess(account, config.CLOUD.API_URL);
    return account;
  }
  try {
    return await verifyTokenRefresh({
      tokenUrl: credentials.tokenUrl,
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      refreshToken: credentials.token.refresh_token,
      apiUrl: config.CLOUD.API_URL,
    });
  } catch (error) {
    const message = messageOf(error);
    if (!message.includes("invalid_grant")) throw error;
    // The remedy for a remote's token is rclone's, not `scanarr authorize`.
    throw new Error(
      `Google no longer accepts remote "${remote.name}"'s refresh token (invalid_grant): ${reconnectRemote(remote.name)}. ${invalidGrantAdvice(reconnectRemote(remote.name))}`,
    );
  }
}

/** Walks to the crypt folder by name and decodes the first names in it. */
async function proveDecoding(remote: DriveRemote, decoder: NameDecoder, api: DriveApi, config: Config): Promise<CheckResult> {
  const start = remote.section.root_folder_id || remote.section.team_drive || (await api.getItem("root"))?.id;
  let folderId = start;
  for (const name of remote.folder) {
    if (folderId === undefined) break;
    const { items } = await api.listChildren(folderId, true, undefined);
    folderId = items.find((item) => item.name === name)?.id;
  }
  const where = `"${remote.name}:${remote.folder.join("/")}"`;
  if (folderId === undefined) return { name: NAME, ok: false, detail: `the crypt remote's folder ${where} is not on the drive` };
  const { items } = await api.listChildren(folderId, false, undefined);
  const sample = items.slice(0, SAMPLE);
  const decoded = sample.filter((item) => decodes(decoder, item.name, item.mimeType === FOLDER_MIME));
  const mimeNote = config.CLOUD.ALLOWED.MIME_TYPES
    ? "; CLOUD.ALLOWED.MIME_TYPES is not applied to crypt files (Drive calls them application/octet-stream), FILE_EXTENSIONS applies to their decoded names"
    : "";
  if (sample.length === 0) return { name: NAME, ok: true, detail: `the crypt folder ${where} is empty: no name to decode yet${mimeNote}` };
  if (decoded.length === 0) {
    return {
      name: NAME,
      ok: false,
      detail: `none of ${sample.length} names in the crypt folder ${where} decode with crypt remote "${remote.crypt?.name}"'s passwords (wrong password or password2, or other filename options than the ones the files were written with)`,
    };
  }
  return {
    name: NAME,
    ok: true,
    detail: `crypt remote "${remote.crypt?.name}" decodes ${decoded.length} of ${sample.length} names in ${where}${mimeNote}`,
  };
}

function decodes(decoder: NameDecoder, name: string, isDir: boolean): boolean {
  try {
    decoder.decryptSegment(name, isDir);
    return true;
  } catch {
    return false;
  }
}
