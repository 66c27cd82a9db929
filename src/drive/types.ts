/**
 * The Drive v3 shapes the monitor reads, reduced to the fields it asks for,
 * and the small adapter interface the poller talks to.
 */

export const FOLDER_MIME = "application/vnd.google-apps.folder";

/** A file or folder as the monitor sees it. */
export interface DriveItem {
  id: string;
  name: string;
  mimeType: string;
  /** Drive allows one parent; absent for roots and items shared from elsewhere. */
  parentId: string | undefined;
  trashed: boolean;
  /** Set only for items in a shared drive. */
  driveId: string | undefined;
}

/** One entry of a change log: the current state of an item, not a delta. */
export interface DriveChange {
  changeType: "file" | "drive";
  fileId: string | undefined;
  removed: boolean;
  /** Present for file changes that were not removed. */
  file: DriveItem | undefined;
  /** Present for drive changes (shared drive added or renamed). */
  drive: { id: string; name: string } | undefined;
}

export interface ChangePage {
  changes: DriveChange[];
  /** More pages follow when set. */
  nextPageToken: string | undefined;
  /** Only on the last page: where the next poll starts. */
  newStartPageToken: string | undefined;
}

export interface SharedDrive {
  id: string;
  name: string;
}

export interface FolderPage {
  folders: DriveItem[];
  nextPageToken: string | undefined;
}

/** Which corpus a call is about: My Drive (`undefined`) or one shared drive. */
export type DriveScope = string | undefined;

/** The Drive API calls the monitor makes; one implementation over @googleapis/drive. */
export interface DriveApi {
  getStartPageToken(driveId: DriveScope): Promise<string>;
  listChanges(pageToken: string, driveId: DriveScope): Promise<ChangePage>;
  listFolders(driveId: DriveScope, pageToken: string | undefined): Promise<FolderPage>;
  /** `undefined` when the item does not exist or is not visible. */
  getItem(id: string): Promise<DriveItem | undefined>;
  /** One page of a folder's untrashed children (folders only when asked); `doctor` reads a crypt folder's names with it. */
  listChildren(
    folderId: string,
    foldersOnly: boolean,
    pageToken: string | undefined,
  ): Promise<{ items: DriveItem[]; nextPageToken: string | undefined }>;
  listSharedDrives(pageToken: string | undefined): Promise<{ drives: SharedDrive[]; nextPageToken: string | undefined }>;
}
