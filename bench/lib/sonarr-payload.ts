/**
 * Sonarr v4 "On Import" (eventType Download) webhook bodies, shaped like what
 * Sonarr sends (about 2.2 KB each). The JSON is built once with placeholders
 * and filled by concatenation, so the load generator spends its CPU on
 * sending, not on JSON.stringify; the wrk script (wrk.ts) fills the same
 * pieces in Lua.
 */
export interface Episode {
  series: number;
  season: number;
  episode: number;
  /** Sonarr's id of the imported file (episodeFile.id, the download id); derived from the episode when absent. */
  fileId?: number;
}

/** The placeholders of the template, in the form each is written in. */
export const SONARR_FIELDS = ["series", "season", "episode", "s00", "e00", "fileId"] as const;
export type SonarrField = (typeof SONARR_FIELDS)[number];

const MARK = "\u0000";
const field = (name: SonarrField) => `${MARK}${name}${MARK}`;

function templateObject(): unknown {
  const id = field("series");
  const title = `Show ${id}`;
  // Sonarr's default episode format: S01E05.
  const code = `S${field("s00")}E${field("e00")}`;
  const file = `${title} - ${code} - Episode Title WEBDL-1080p.mkv`;
  const scene = `Show.${id}.${code}.1080p.AMZN.WEB-DL.DDP5.1.H.264-NTb`;
  const cover = (type: string) => ({
    coverType: type,
    url: `/MediaCover/${id}/${type}.jpg?lastWrite=638791602694812200`,
    remoteUrl: `https://artworks.thetvdb.com/banners/${type}s/${id}-1.jpg`,
  });
  return {
    series: {
      id,
      title,
      titleSlug: `show-${id}`,
      path: `/tv/${title}`,
      tvdbId: 281042,
      tvMazeId: 1893,
      tmdbId: 63712,
      imdbId: "tt3230911",
      type: "standard",
      year: 2015,
      genres: ["Drama", "Science Fiction"],
      images: ["banner", "poster", "fanart"].map(cover),
      tags: ["bench"],
      originalLanguage: { id: 1, name: "English" },
    },
    episodes: [
      {
        id: field("fileId"),
        episodeNumber: field("episode"),
        seasonNumber: field("season"),
        title: "Episode Title",
        overview: "Something happens to someone somewhere, and then something else happens to someone else.",
        airDate: "2016-01-06",
        airDateUtc: "2016-01-07T03:00:00Z",
        seriesId: id,
        tvdbId: 5432101,
      },
    ],
    episodeFile: {
      id: field("fileId"),
      relativePath: `Season ${field("season")}/${file}`,
      path: `/tv/${title}/Season ${field("season")}/${file}`,
      quality: "WEBDL-1080p",
      qualityVersion: 1,
      releaseGroup: "NTb",
      sceneName: scene,
      size: 2468123456,
      dateAdded: "2025-05-11T20:41:07.3391842Z",
      languages: [{ id: 1, name: "English" }],
      mediaInfo: {
        audioChannels: 5.1,
        audioCodec: "EAC3",
        audioLanguages: ["eng"],
        height: 1080,
        width: 1920,
        subtitles: ["eng", "spa"],
        videoCodec: "h264",
        videoDynamicRange: "",
        videoDynamicRangeType: "",
      },
      sourcePath: `/downloads/complete/tv/${scene}/${scene}.mkv`,
    },
    isUpgrade: false,
    downloadClient: "SABnzbd",
    downloadClientType: "SABnzbd",
    downloadId: `SABnzbd_nzo_${field("fileId")}`,
    customFormatInfo: { customFormats: [{ id: 4, name: "AMZN" }], customFormatScore: 1750 },
    release: {
      releaseTitle: scene,
      indexer: "NZBgeek (Prowlarr)",
      size: 2471209984,
      releaseType: "singleEpisode",
    },
    eventType: "Download",
    instanceName: "Sonarr",
    applicationUrl: "",
  };
}

/**
 * The body as pieces: literal JSON at even indexes, a placeholder's name at
 * odd ones. JSON escapes U+0000 as \u0000; a value that was a placeholder
 * alone (a number) loses its quotes.
 */
export const SONARR_DOWNLOAD_PARTS: readonly string[] = JSON.stringify(templateObject())
  .replace(/"\\u0000(\w+)\\u0000"/g, `${MARK}$1${MARK}`)
  .replaceAll("\\u0000", MARK)
  .split(MARK);

const pad2 = (n: number) => String(n).padStart(2, "0");

function valuesOf(episode: Episode): Record<SonarrField, string> {
  return {
    series: String(episode.series),
    season: String(episode.season),
    episode: String(episode.episode),
    s00: pad2(episode.season),
    e00: pad2(episode.episode),
    fileId: String(episode.fileId ?? episode.series * 10_000 + episode.season * 100 + episode.episode),
  };
}

/** The body Sonarr posts when it imported `episode`; the file lands in /tv/Show <series>/Season <season>/. */
export function sonarrDownloadBody(episode: Episode): string {
  const values = valuesOf(episode);
  let out = "";
  for (let i = 0; i < SONARR_DOWNLOAD_PARTS.length; i++) {
    const part = SONARR_DOWNLOAD_PARTS[i] as string;
    out += i % 2 === 1 ? values[part as SonarrField] : part;
  }
  return out;
}

/**
 * Where the k-th file of a load lands. Every k names a file no other k names
 * (real *arr traffic names a new file in almost every webhook); the layout
 * says whether the folders repeat.
 */
export type FileLayout =
  /** A new episode file each time in one of `series` × `seasons` season folders, taken in turn: the folders stay open. */
  | { folders: "open"; series: number; seasons: number }
  /** Each file in a season folder of its own (`seasons` of them per series folder). */
  | { folders: "new"; seasons: number };

/** The wrk loads (`ingest.ts --wrk --folders open|new`, `peer.ts`). */
export const WRK_LAYOUTS = {
  /** 200 season folders taken in turn (100 series × 2). */
  open: { folders: "open", series: 100, seasons: 2 },
  /** A season folder of its own per request, 10 per series folder. */
  new: { folders: "new", seasons: 10 },
} as const satisfies Record<string, FileLayout>;

/** The k-th file of `layout` (k from 0); its file id is k + 1. */
export function episodeAt(layout: FileLayout, k: number): Episode {
  if (layout.folders === "new")
    return { series: Math.floor(k / layout.seasons), season: (k % layout.seasons) + 1, episode: 1, fileId: k + 1 };
  const folders = layout.series * layout.seasons;
  const folder = k % folders;
  return {
    series: folder % layout.series,
    season: Math.floor(folder / layout.series) + 1,
    episode: Math.floor(k / folders) + 1,
    fileId: k + 1,
  };
}

/** The layout in words, for a bench's heading. */
export function describeLayout(layout: FileLayout): string {
  return layout.folders === "new"
    ? `a new file in a new season folder per request (${layout.seasons} per series folder)`
    : `a new file per request in ${layout.series * layout.seasons} season folders taken in turn (${layout.series} series × ${layout.seasons}), which stay open`;
}

/** The media-server folder the fake Plex receives for `episode` (Sonarr's /tv is Plex's /data/TV). */
export function plexFolderOf(episode: Pick<Episode, "series" | "season">): string {
  return `/data/TV/Show ${episode.series}/Season ${episode.season}`;
}
