/**
 * What the fake *arr apps send to a webhook, in the apps' own shapes
 * (apis.md §5, the fields the C# payload classes write): the Test event of
 * a connection's test, and a Download of one file into an item's folder.
 */

export type FakeArrKind = "sonarr" | "radarr" | "lidarr" | "readarr";

export const FAKE_ARR_APP_NAMES: Record<FakeArrKind, string> = {
  sonarr: "Sonarr",
  radarr: "Radarr",
  lidarr: "Lidarr",
  readarr: "Readarr",
};

/** The item whose file the Download carries: its id, title and folder. */
export interface FakeArrItem {
  id: number;
  title: string;
  path: string;
}

function base(kind: FakeArrKind, instanceName: string, eventType: string): Record<string, unknown> {
  // Readarr's payloads have no applicationUrl (apis.md §5.1).
  return kind === "readarr" ? { eventType, instanceName } : { eventType, instanceName, applicationUrl: "" };
}

/** `eventType: "Test"` with the dummy path `C:\testpath`, as the Test button and the save's test send it. */
export function testPayload(kind: FakeArrKind, instanceName: string): Record<string, unknown> {
  const dummy = "C:\\testpath";
  const bodies: Record<FakeArrKind, Record<string, unknown>> = {
    sonarr: {
      series: { id: 1, title: "Test Title", path: dummy, tvdbId: 1234, type: "standard", year: 0, tags: ["test-tag"] },
      episodes: [{ id: 123, episodeNumber: 1, seasonNumber: 1, title: "Test title", seriesId: 0, tvdbId: 0 }],
    },
    radarr: {
      movie: { id: 1, title: "Test Title", year: 1970, folderPath: dummy, tmdbId: 0, tags: ["test-tag"] },
      remoteMovie: { tmdbId: 1234, imdbId: "5678", title: "Test title", year: 1970 },
    },
    lidarr: { artist: { id: 1, name: "Test Name", path: dummy, mbId: "aaaaa-aaa-aaaa-aaaaaa" }, albums: [] },
    readarr: { author: { id: 1, name: "Test Name", path: dummy, goodreadsId: "1" }, books: [] },
  };
  return { ...bodies[kind], ...base(kind, instanceName, "Test") };
}

/** A Download (On Import) of `fileName` into `item`'s folder; the file paths are absolute as the apps send them. */
export function downloadPayload(kind: FakeArrKind, instanceName: string, item: FakeArrItem, fileName: string): Record<string, unknown> {
  const path = `${item.path}/${fileName}`;
  const file = { id: 501, path, quality: "WEBDL-1080p", qualityVersion: 1, size: 1_572_864_000, dateAdded: "2026-11-20T21:04:11Z" };
  const bodies: Record<FakeArrKind, Record<string, unknown>> = {
    sonarr: {
      series: { id: item.id, title: item.title, path: item.path, type: "standard", year: 2015 },
      episodes: [{ id: 1187, episodeNumber: 4, seasonNumber: 1, title: "CQB", seriesId: item.id }],
      episodeFile: { ...file, relativePath: fileName },
      isUpgrade: false,
      downloadClient: "qBittorrent",
      downloadClientType: "qBittorrent",
      downloadId: "4A1F0C8E",
    },
    radarr: {
      movie: { id: item.id, title: item.title, year: 2014, folderPath: item.path, tmdbId: 157336 },
      remoteMovie: { tmdbId: 157336, title: item.title, year: 2014 },
      movieFile: { ...file, relativePath: fileName },
      isUpgrade: false,
      downloadClient: "SABnzbd",
      downloadClientType: "SABnzbd",
      downloadId: "SABnzbd_nzo_1",
    },
    lidarr: {
      artist: { id: item.id, name: item.title, path: item.path },
      album: { id: 31, title: "Enema of the State", releaseDate: "1999-06-01T00:00:00Z" },
      tracks: [{ id: 310, title: "Aliens Exist", trackNumber: "3" }],
      trackFiles: [file],
      isUpgrade: false,
    },
    readarr: {
      author: { id: item.id, name: item.title, path: item.path },
      book: { id: 41, title: "The Way of Kings", releaseDate: "2010-08-31T00:00:00Z" },
      bookFiles: [file],
      isUpgrade: false,
    },
  };
  return { ...bodies[kind], ...base(kind, instanceName, "Download") };
}
