import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { encryptConfig } from "../../src/rclone/config-crypt.js";
import { obscurePassword } from "../../src/rclone/obscure.js";
import type { FakeDrive } from "../fakes/drive.js";
import { makeTempDir } from "../rclone/rclone-cli.js";

/** A real rclone.conf holding a drive remote `gdrive` and a crypt remote `gcrypt` over `gdrive:<cryptFolder>`. */
export interface DriveRemoteConf {
  file: string;
  /** RCLONE_CONFIG_PASS when the file is encrypted. */
  env: NodeJS.ProcessEnv;
  /** Encrypts plain paths below the crypt folder with the real rclone (`cryptdecode --reverse`). */
  encode(paths: readonly string[]): string[];
}

export interface DriveRemoteOptions {
  /** The drive remote's own client; omitted: rclone's shared client (no client_id). */
  client?: { clientId: string; clientSecret: string };
  refreshToken?: string;
  /** Epoch ms the access token in rclone.conf expires at. */
  expiry?: number;
  cryptFolder?: string;
  /** Encrypts rclone.conf with this password (as rclone's "Set configuration password" does). */
  configPassword?: string;
  /** The crypt remote's password; CRYPT_PASSWORD unless given. */
  cryptPassword?: string;
  /** Extra keys of the drive remote (team_drive, root_folder_id, service_account_file). */
  driveKeys?: Record<string, string>;
}

export const CRYPT_PASSWORD = "crypt pässword";
export const CRYPT_SALT = "pepper and salt";

export function writeDriveRemoteConf(options: DriveRemoteOptions = {}): DriveRemoteConf {
  const file = path.join(makeTempDir(), "rclone.conf");
  const token = {
    access_token: "ya29.expired-access-token",
    token_type: "Bearer",
    refresh_token: options.refreshToken ?? "1//0g-not-known",
    expiry: new Date(options.expiry ?? Date.now() - 60_000).toISOString(),
  };
  const drive = {
    type: "drive",
    ...(options.client ? { client_id: options.client.clientId, client_secret: options.client.clientSecret } : {}),
    scope: "drive",
    token: JSON.stringify(token),
    ...(options.driveKeys ?? {}),
  };
  const crypt = {
    type: "crypt",
    remote: `gdrive:${options.cryptFolder ?? "encrypt"}`,
    password: obscurePassword(options.cryptPassword ?? CRYPT_PASSWORD),
    password2: obscurePassword(CRYPT_SALT),
  };
  const section = (name: string, keys: Record<string, string>) =>
    `[${name}]\n${Object.entries(keys)
      .map(([k, v]) => `${k} = ${v}`)
      .join("\n")}\n`;
  const plain = `${section("gdrive", drive)}\n${section("gcrypt", crypt)}`;
  writeFileSync(file, options.configPassword ? encryptConfig(plain, options.configPassword) : plain, { mode: 0o600 });
  const env: NodeJS.ProcessEnv = options.configPassword ? { RCLONE_CONFIG_PASS: options.configPassword } : {};
  return {
    file,
    env,
    encode(paths) {
      const out = execFileSync("rclone", ["--config", file, "cryptdecode", "--reverse", "gcrypt:", "--", ...paths], {
        encoding: "utf8",
        env: { ...process.env, RCLONE_CONFIG_PASS: undefined, ...env },
        stdio: ["ignore", "pipe", "pipe"],
      });
      // Each line: "<plain> \t <encrypted>".
      const lines = out.split("\n").filter((line) => line.includes("\t"));
      if (lines.length !== paths.length) throw new Error(`rclone encoded ${lines.length} of ${paths.length} paths`);
      return lines.map((line) => line.split(" \t ")[1]!.trim());
    },
  };
}

/** Adds an encrypted path below `cryptFolderId` to the fake Drive: its folders (found or made), then the file; returns the file id. */
export function addEncryptedFile(drive: FakeDrive, cryptFolderId: string, encryptedPath: string): string {
  const parts = encryptedPath.split("/");
  const name = parts.pop()!;
  const parent = parts.length ? drive.addFolderPath(parts.join("/"), cryptFolderId) : cryptFolderId;
  // Drive cannot tell what a crypt file holds.
  return drive.addFile(name, parent, "application/octet-stream");
}
