import { BoundedMap } from "../lib/bounded-map.js";
import type { Logger } from "../lib/logger.js";
import type { LogChoice } from "./change-logs.js";

/** Reads the names of one encrypted folder (an rclone crypt remote's name cipher); throws on a name it did not write. */
export interface NameDecoder {
  decryptSegment(name: string, isDir: boolean): string;
  /** Many names at once (one pass through the cipher); an Error in place of each name that does not decode. */
  decryptSegments(names: readonly string[], isDir: boolean): Array<string | Error>;
}

/** A folder of the watched drive: plain names below a folder id (a remote's root_folder_id) or below the drive's root. */
export interface FolderRef {
  rootFolderId: string | undefined;
  names: string[];
}

/** A folder whose tree holds encrypted names, and how to read them. */
export interface CryptFolder {
  /** Where the encrypted tree starts: a folder of the watched drive, or a Drive path ("My Drive/encrypt", CRYPT_MAPPINGS). */
  at: FolderRef | string;
  decoder: NameDecoder;
  /** The crypt remote's name, for the logs. */
  remote: string;
}

/**
 * What an rclone remote (CLOUD.RCLONE_REMOTE) or CRYPT_MAPPINGS changes in
 * how the monitor reads the drive: which logs it watches, the folder it
 * looks in, and where names must be decoded.
 */
export interface RemoteView {
  /** The change logs to watch; undefined: My Drive and CLOUD.TEAMDRIVES, as without a remote. */
  logs: LogChoice | undefined;
  /** Files outside this folder (its decoded path) are skipped; undefined: anywhere. */
  scope: FolderRef | undefined;
  crypt: CryptFolder[];
  /** What to do when Google refuses the token (reconnect the rclone remote); undefined: `scanarr authorize`. */
  authorizeAgain?: string | undefined;
}

export type ReadPath =
  | { kind: "plain"; path: string }
  /** Decoded from a crypt folder: Drive's MIME type says nothing about it. */
  | { kind: "decoded"; path: string }
  | { kind: "outside" }
  | { kind: "undecodable"; name: string };

/** Turns resolved Drive paths into the paths the filters, the mappings and the scan see. */
export interface PathReader {
  /** Decodes the new names of a page's paths together (a page of names costs a third of one-by-one decoding). */
  prepare(drivePaths: readonly string[]): void;
  read(drivePath: string): ReadPath;
}

/** Where a FolderRef starts: the path of a folder id, or of the watched drive's root. */
export type FolderPathOf = (rootFolderId: string | undefined) => Promise<string | undefined>;

/** Decoded names remembered per crypt folder; a season folder's name is decoded once, not once per episode. */
const MEMO_ENTRIES = 50_000;
/** Undecodable names logged once each, within this bound. */
const REPORTED_ENTRIES = 10_000;

/**
 * Reads Drive paths through a RemoteView. The encrypted part of a path is
 * replaced by its decoded names and the rest kept, so a file under the crypt
 * folder `encrypt` reads `My Drive/encrypt/Media/TV/…` and maps like any
 * other Drive path. A name that does not decode is logged once at debug.
 */
export class RemoteNames {
  /** Decoded folder names per crypt folder, and the Error of a name that does not decode. */
  private readonly memos: BoundedMap<string, string | Error>[];
  private readonly reported = new BoundedMap<string, true>(REPORTED_ENTRIES);

  constructor(
    private readonly view: RemoteView,
    private readonly logger: Logger,
  ) {
    this.memos = view.crypt.map(() => new BoundedMap(MEMO_ENTRIES));
  }

  /** A reader for one page: folder ids are resolved once, so renamed folders count from the next page. */
  async reader(pathOf: FolderPathOf): Promise<PathReader> {
    // null: the remote's folder is not on the drive (yet), so nothing is inside it.
    const scope = this.view.scope ? ((await partsOf(this.view.scope, pathOf)) ?? null) : undefined;
    const crypt: Array<{ parts: string[]; index: number }> = [];
    for (const [index, folder] of this.view.crypt.entries()) {
      const parts = await partsOf(folder.at, pathOf);
      if (parts) crypt.push({ parts, index });
    }
    // The deepest crypt folder first, when one lies inside another.
    crypt.sort((a, b) => b.parts.length - a.parts.length);
    const cryptFolderOf = (parts: string[]) => crypt.find((c) => startsWith(parts, c.parts) && parts.length > c.parts.length);
    // A page's decoded file names; folder names go to the lasting memo.
    const files = new Map<string, string | Error>();
    return {
      prepare: (drivePaths) => {
        const wanted = this.view.crypt.map(() => ({ dirs: new Set<string>(), files: new Set<string>() }));
        for (const drivePath of drivePaths) {
          const parts = splitPath(drivePath);
          const folder = cryptFolderOf(parts);
          if (!folder) continue;
          const memo = this.memos[folder.index]!;
          for (let i = folder.parts.length; i < parts.length - 1; i++)
            if (memo.get(`d/${parts[i]}`) === undefined) wanted[folder.index]!.dirs.add(parts[i]!);
          wanted[folder.index]!.files.add(parts[parts.length - 1]!);
        }
        for (const [index, names] of wanted.entries()) {
          const decoder = this.view.crypt[index]!.decoder;
          const dirs = [...names.dirs];
          decoder.decryptSegments(dirs, true).forEach((plain, i) => this.memos[index]!.set(`d/${dirs[i]}`, plain));
          const fileNames = [...names.files];
          decoder.decryptSegments(fileNames, false).forEach((plain, i) => files.set(`${index}/${fileNames[i]}`, plain));
        }
      },
      read: (drivePath) => {
        const parts = splitPath(drivePath);
        let read: ReadPath = { kind: "plain", path: drivePath };
        const folder = cryptFolderOf(parts);
        if (folder) read = this.decode(parts, folder.parts.length, folder.index, files);
        if (scope === undefined || (read.kind !== "plain" && read.kind !== "decoded")) return read;
        if (scope === null || !startsWith(splitPath(read.path), scope)) return { kind: "outside" };
        return read;
      },
    };
  }

  private decode(parts: string[], from: number, index: number, prepared: ReadonlyMap<string, string | Error>): ReadPath {
    const folder = this.view.crypt[index]!;
    const memo = this.memos[index]!;
    const out = parts.slice(0, from);
    for (let i = from; i < parts.length; i++) {
      const name = parts[i]!;
      const isDir = i < parts.length - 1;
      let plain = isDir ? memo.get(`d/${name}`) : prepared.get(`${index}/${name}`);
      if (plain === undefined) {
        plain = decodeOne(folder.decoder, name, isDir);
        if (isDir) memo.set(`d/${name}`, plain);
      }
      if (plain instanceof Error) {
        this.reportOnce(folder.remote, name, plain);
        return { kind: "undecodable", name };
      }
      out.push(plain);
    }
    return { kind: "decoded", path: out.join("/") };
  }

  private reportOnce(remote: string, name: string, error: unknown): void {
    const key = `${remote}\u0000${name}`;
    if (this.reported.get(key)) return;
    this.reported.set(key, true);
    const reason = error instanceof Error ? error.message : String(error);
    this.logger.debug({ remote, name, reason }, "Drive name in a crypt folder does not decode (not written by this remote); skipped");
  }
}

async function partsOf(at: FolderRef | string, pathOf: FolderPathOf): Promise<string[] | undefined> {
  if (typeof at === "string") return splitPath(at);
  const base = await pathOf(at.rootFolderId);
  return base === undefined ? undefined : [...splitPath(base), ...at.names];
}

function decodeOne(decoder: NameDecoder, name: string, isDir: boolean): string | Error {
  try {
    return decoder.decryptSegment(name, isDir);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

function splitPath(path: string): string[] {
  return path.split("/").filter((part) => part !== "");
}

function startsWith(parts: string[], prefix: string[]): boolean {
  return prefix.length <= parts.length && prefix.every((part, i) => parts[i] === part);
}
