import { readTextFile } from "../lib/text-file.js";
import { writeFileAtomic } from "../lib/atomic-write.js";
import { decryptConfig, encryptConfig, isEncryptedConfig } from "./config-crypt.js";
import { parseConf, serializeConf, type ConfDocument } from "./conf-document.js";

/** rclone.conf as loaded: the parsed text and, for an encrypted file, its password. */
export interface LoadedConf {
  file: string;
  exists: boolean;
  /** The plain INI text as read, to tell whether anything changed. */
  original: string;
  doc: ConfDocument;
  password: string | undefined;
}

/** The file's text, or undefined when it does not exist yet. */
export async function readConfText(file: string): Promise<string | undefined> {
  try {
    return await readTextFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Parses a (possibly encrypted) file; `password` is needed only when it is encrypted. */
export function loadConf(file: string, text: string | undefined, password?: string): LoadedConf {
  if (text === undefined) return { file, exists: false, original: "", doc: parseConf(""), password: undefined };
  const encrypted = isEncryptedConfig(text);
  const plain = encrypted ? decryptConfig(text, password ?? "") : text;
  return { file, exists: true, original: plain, doc: parseConf(plain), password: encrypted ? password : undefined };
}

/** Writes the working copy back when it or the password changed; returns whether it wrote. */
export async function saveConf(loaded: LoadedConf, doc: ConfDocument, password: string | undefined): Promise<boolean> {
  const plain = serializeConf(doc);
  if (plain === loaded.original && password === loaded.password) return false;
  const data = password === undefined ? plain : encryptConfig(plain, password);
  await writeFileAtomic(loaded.file, data, { mode: 0o600 });
  return true;
}
