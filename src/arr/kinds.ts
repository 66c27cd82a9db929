/** The four *arr apps scanarr connects to. */
export const ARR_KINDS = ["sonarr", "radarr", "lidarr", "readarr"] as const;

export type ArrKind = (typeof ARR_KINDS)[number];

/** What differs between the four apps' APIs (round3.md §3). */
export interface ArrKindInfo {
  /** As the app names itself in `system/status` (`appName`) and in messages. */
  appName: string;
  /** `/api/v3` (Sonarr, Radarr) or `/api/v1` (Lidarr, Readarr). */
  apiRoot: "/api/v3" | "/api/v1";
  /** The library's items, each with its folder in `path`. */
  itemsPath: string;
  /** What one item is called, singular and plural, for evidence lines. */
  itemNoun: string;
  itemsNoun: string;
  /**
   * The `on*` flags of the events that change files: the ones a scan needs.
   * Grab, health, added and update events stay off.
   */
  fileEvents: readonly string[];
  /** Whether the Webhook connection has a custom `headers` field (Readarr's has none). */
  hasHeaders: boolean;
}

export const ARR_KIND_INFO: Record<ArrKind, ArrKindInfo> = {
  sonarr: {
    appName: "Sonarr",
    apiRoot: "/api/v3",
    itemsPath: "/series",
    itemNoun: "series",
    itemsNoun: "series",
    fileEvents: ["onDownload", "onUpgrade", "onRename", "onSeriesDelete", "onEpisodeFileDelete", "onEpisodeFileDeleteForUpgrade"],
    hasHeaders: true,
  },
  radarr: {
    appName: "Radarr",
    apiRoot: "/api/v3",
    itemsPath: "/movie",
    itemNoun: "movie",
    itemsNoun: "movies",
    fileEvents: ["onDownload", "onUpgrade", "onRename", "onMovieDelete", "onMovieFileDelete", "onMovieFileDeleteForUpgrade"],
    hasHeaders: true,
  },
  lidarr: {
    appName: "Lidarr",
    apiRoot: "/api/v1",
    itemsPath: "/artist",
    itemNoun: "artist",
    itemsNoun: "artists",
    fileEvents: ["onReleaseImport", "onUpgrade", "onRename", "onArtistDelete", "onAlbumDelete", "onTrackRetag"],
    hasHeaders: true,
  },
  readarr: {
    appName: "Readarr",
    apiRoot: "/api/v1",
    itemsPath: "/author",
    itemNoun: "author",
    itemsNoun: "authors",
    fileEvents: [
      "onReleaseImport",
      "onUpgrade",
      "onRename",
      "onAuthorDelete",
      "onBookDelete",
      "onBookFileDelete",
      "onBookFileDeleteForUpgrade",
      "onBookRetag",
    ],
    hasHeaders: false,
  },
};

/** The kind whose `appName` this is (case-insensitive), or undefined for another program. */
export function kindOfAppName(appName: string): ArrKind | undefined {
  const wanted = appName.trim().toLowerCase();
  return ARR_KINDS.find((kind) => ARR_KIND_INFO[kind].appName.toLowerCase() === wanted);
}

export function isArrKind(value: string): value is ArrKind {
  return (ARR_KINDS as readonly string[]).includes(value);
}
