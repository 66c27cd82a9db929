/**
 * Sonarr v4 "On Import" (eventType Download) webhook bodies, shaped like what
 * Sonarr sends (about 2.5 KB each). The JSON is built once with placeholders
 * and filled by concatenation, so the load generator spends its CPU on
 * sending, not on JSON.stringify.
 */
export interface Episode {
  series: number;
  season: number;
  episode: number;
}

const MARK = "\u0000";
const FIELDS = ["series", "season", "episode"] as const;

function templateObject(): unknown {
  const id = `${MARK}series${MARK}`;
  const title = `Show ${id}`;
  const code = `S${MARK}season${MARK}E${MARK}episode${MARK}`;
  const file = `${title} - ${code} - Episode Title WEBDL-1080p.mkv`;
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
        id: 1187,
        episodeNumber: `${MARK}episode${MARK}`,
        seasonNumber: `${MARK}season${MARK}`,
        title: "Episode Title",
        overview: "Something happens to someone somewhere, and then something else happens to someone else.",
        airDate: "2016-01-06",
        airDateUtc: "2016-01-07T03:00:00Z",
        seriesId: id,
        tvdbId: 5432101,
      },
    ],
    episodeFile: {
      id: 2231,
      relativePath: `Season ${MARK}season${MARK}/${file}`,
      path: `/tv/${title}/Season ${MARK}season${MARK}/${file}`,
      quality: "WEBDL-1080p",
      qualityVersion: 1,
      releaseGroup: "NTb",
      sceneName: `Show.${code}.1080p.AMZN.WEB-DL.DDP5.1.H.264-NTb`,
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
      sourcePath: `/downloads/complete/tv/Show.${code}.1080p.AMZN.WEB-DL.DDP5.1.H.264-NTb/Show.${code}.mkv`,
    },
    isUpgrade: false,
    downloadClient: "SABnzbd",
    downloadClientType: "SABnzbd",
    downloadId: "SABnzbd_nzo_k3v8q1xw",
    customFormatInfo: { customFormats: [{ id: 4, name: "AMZN" }], customFormatScore: 1750 },
    release: {
      releaseTitle: `Show.${code}.1080p.AMZN.WEB-DL.DDP5.1.H.264-NTb`,
      indexer: "NZBgeek (Prowlarr)",
      size: 2471209984,
      releaseType: "singleEpisode",
    },
    eventType: "Download",
    instanceName: "Sonarr",
    applicationUrl: "",
  };
}

// JSON escapes U+0000 as \u0000; numbers were quoted placeholders, so their quotes go too.
const parts = JSON.stringify(templateObject())
  .replace(/"\\u0000(series|season|episode)\\u0000"/g, `${MARK}$1${MARK}`)
  .replaceAll("\\u0000", MARK)
  .split(MARK);

/** The body Sonarr posts when it imported `episode`; the file lands in /tv/Show <series>/Season <season>/. */
export function sonarrDownloadBody(episode: Episode): string {
  let out = "";
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    out += i % 2 === 1 && (FIELDS as readonly string[]).includes(part) ? String(episode[part as (typeof FIELDS)[number]]) : part;
  }
  return out;
}

/** The media-server folder the fake Plex receives for `episode` (Sonarr's /tv is Plex's /data/TV). */
export function plexFolderOf(episode: Pick<Episode, "series" | "season">): string {
  return `/data/TV/Show ${episode.series}/Season ${episode.season}`;
}
