import type { ConfDocument } from "../conf-document.js";
import type { SharedDrive } from "../shared-drives.js";
import type { Prompt } from "./prompt.js";

/** Answers given as command-line flags; each one skips its question. */
export interface RemoteFlags {
  name?: string | undefined;
  scope?: string | undefined;
  token?: string | undefined;
  serviceAccountFile?: string | undefined;
  teamDrive?: string | undefined;
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  rootFolderId?: string | undefined;
}

/** How the token step and the shared-drive list reach Google. */
export interface SharedDriveAuth {
  token?: string | undefined;
  serviceAccountFile?: string | undefined;
  scope: string;
}

/**
 * Everything the wizard steps share: the injected prompt and printer, the
 * working copy of rclone.conf (saved once, at the end), and the outside world.
 */
export interface Context {
  prompt: Prompt;
  print: (text: string) => void;
  interactive: boolean;
  /** Working copy of the file; edits land here and are written when the wizard ends. */
  doc: ConfDocument;
  /** Configuration password; undefined means the file is saved in plain text. */
  password: string | undefined;
  /** Flags not consumed yet (the first new remote takes them). */
  flags: RemoteFlags;
  env: NodeJS.ProcessEnv;
  home: string;
  platform: NodeJS.Platform;
  /** Folder of rclone.conf, offered to service_account_file as ${RCLONE_CONFIG_DIR}. */
  configDir: string;
  /** Runs `rclone authorize <args>` on this machine and returns what it printed on stdout. */
  runAuthorize: (args: string[]) => Promise<string>;
  listSharedDrives: (auth: SharedDriveAuth) => Promise<SharedDrive[]>;
  /** A random password of `bits` bits, rclone-style (URL-safe base64). */
  generatePassword: (bits: number) => string;
}
