import { drive, type drive_v3 } from "@googleapis/drive";
import type { DriveAuth } from "../auth/drive-auth.js";
import { toDriveApiError } from "./errors.js";
import { FOLDER_MIME, type ChangePage, type DriveApi, type DriveChange, type DriveItem, type DriveScope } from "./types.js";

const ITEM_FIELDS = "id,name,mimeType,parents,trashed,driveId";
const CHANGE_FIELDS = `nextPageToken,newStartPageToken,changes(changeType,removed,fileId,drive(id,name),file(${ITEM_FIELDS}))`;
const FOLDER_QUERY = `mimeType='${FOLDER_MIME}' and trashed=false`;

export interface DriveClientOptions {
  /** The user's OAuth client or a service account's JWT client (src/auth). */
  auth: DriveAuth;
  /** Origin of the API (CLOUD.API_URL); the client appends /drive/v3/... */
  apiUrl: string;
  timeoutMs?: number;
  /** What a refused token's error tells the user to do; `scanarr authorize` unless an rclone remote's. */
  authorizeAgain?: string;
}

/**
 * The Drive adapter over @googleapis/drive. Its own retries are off: the
 * poller backs off on rate limits with Google's delays, which are far longer
 * than the client's defaults and also cover 403 rate limits.
 */
export function createDriveApi(options: DriveClientOptions): DriveApi {
  const api = drive({
    version: "v3",
    auth: options.auth,
    rootUrl: options.apiUrl.endsWith("/") ? options.apiUrl : `${options.apiUrl}/`,
    retry: false,
    timeout: options.timeoutMs ?? 30_000,
  });
  const allDrives = { supportsAllDrives: true, includeItemsFromAllDrives: true };
  const again = options.authorizeAgain;
  const call = <T>(what: string, request: () => Promise<T>): Promise<T> => callDrive(what, request, again);

  return {
    async getStartPageToken(driveId: DriveScope) {
      const res = await call("changes.getStartPageToken", () =>
        api.changes.getStartPageToken({ supportsAllDrives: true, ...(driveId ? { driveId } : {}) }),
      );
      if (!res.data.startPageToken) throw toDriveApiError(new Error("no startPageToken in the answer"), "changes.getStartPageToken", again);
      return res.data.startPageToken;
    },

    async listChanges(pageToken: string, driveId: DriveScope): Promise<ChangePage> {
      const res = await call("changes.list", () =>
        api.changes.list({
          pageToken,
          pageSize: 1000,
          includeRemoved: true,
          fields: CHANGE_FIELDS,
          ...allDrives,
          // The user log would also report shared-with-me items whose parents we cannot see.
          ...(driveId ? { driveId } : { restrictToMyDrive: true }),
        }),
      );
      return {
        changes: (res.data.changes ?? []).map(toChange),
        nextPageToken: res.data.nextPageToken ?? undefined,
        newStartPageToken: res.data.newStartPageToken ?? undefined,
      };
    },

    async listFolders(driveId: DriveScope, pageToken: string | undefined) {
      const res = await call("files.list", () =>
        api.files.list({
          q: FOLDER_QUERY,
          pageSize: 1000,
          fields: "nextPageToken,files(id,name,parents,driveId)",
          ...allDrives,
          ...(driveId ? { corpora: "drive", driveId } : { corpora: "user" }),
          ...(pageToken ? { pageToken } : {}),
        }),
      );
      const folders = (res.data.files ?? []).map((f) => toItem({ ...f, mimeType: FOLDER_MIME, trashed: false }));
      return { folders: folders.filter((f): f is DriveItem => f !== undefined), nextPageToken: res.data.nextPageToken ?? undefined };
    },

    async listChildren(folderId: string, foldersOnly: boolean, pageToken: string | undefined) {
      const q = `'${folderId.replace(/['\\]/g, "\\$&")}' in parents and trashed=false${foldersOnly ? ` and mimeType='${FOLDER_MIME}'` : ""}`;
      const res = await call("files.list", () =>
        api.files.list({
          q,
          pageSize: 100,
          fields: `nextPageToken,files(${ITEM_FIELDS})`,
          ...allDrives,
          ...(pageToken ? { pageToken } : {}),
        }),
      );
      const items = (res.data.files ?? []).map(toItem).filter((f): f is DriveItem => f !== undefined);
      return { items, nextPageToken: res.data.nextPageToken ?? undefined };
    },

    async getItem(id: string) {
      try {
        const res = await api.files.get({ fileId: id, supportsAllDrives: true, fields: ITEM_FIELDS });
        return toItem(res.data);
      } catch (error) {
        const failure = toDriveApiError(error, "files.get", again);
        if (failure.kind === "not-found") return undefined;
        throw failure;
      }
    },

    async listSharedDrives(pageToken: string | undefined) {
      const res = await call("drives.list", () =>
        api.drives.list({ pageSize: 100, fields: "nextPageToken,drives(id,name)", ...(pageToken ? { pageToken } : {}) }),
      );
      const drives = (res.data.drives ?? []).flatMap((d) => (d.id && d.name ? [{ id: d.id, name: d.name }] : []));
      return { drives, nextPageToken: res.data.nextPageToken ?? undefined };
    },
  };
}

async function callDrive<T>(what: string, request: () => Promise<T>, authorizeAgain: string | undefined): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw toDriveApiError(error, what, authorizeAgain);
  }
}

function toChange(change: drive_v3.Schema$Change): DriveChange {
  const drive = change.drive?.id && change.drive.name ? { id: change.drive.id, name: change.drive.name } : undefined;
  return {
    changeType: change.changeType === "drive" ? "drive" : "file",
    fileId: change.fileId ?? undefined,
    removed: change.removed === true,
    file: change.file ? toItem(change.file) : undefined,
    drive,
  };
}

function toItem(file: drive_v3.Schema$File): DriveItem | undefined {
  if (!file.id || typeof file.name !== "string") return undefined;
  return {
    id: file.id,
    name: file.name,
    mimeType: file.mimeType ?? "",
    parentId: file.parents?.[0] ?? undefined,
    trashed: file.trashed === true,
    driveId: file.driveId ?? undefined,
  };
}
