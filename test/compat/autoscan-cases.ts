/**
 * autoscan's own trigger test cases (its triggers/*_test.go tables and
 * testdata, as described in ../shared/reference/autoscan.md §2.12), written
 * again as payloads for scanarr's routes. autoscan rewrote `/TV/…` to
 * `/mnt/unionfs/Media/TV/…`; the test service maps the same prefixes.
 */
export interface AutoscanCase {
  name: string;
  /** Path under /triggers/. */
  route: string;
  body: unknown;
  /** Folders autoscan expected, after its rewrite; [] = answered 200 with nothing queued. */
  folders: string[];
}

const TV = "/mnt/unionfs/Media/TV";
const MOVIES = "/mnt/unionfs/Media/Movies";

export const MAPPINGS: Record<string, string[]> = {
  "/mnt/unionfs/Media/TV/": ["/TV/"],
  "/mnt/unionfs/Media/Movies/": ["/Movies/"],
  "/mnt/unionfs/Media/Music/": ["/Music/"],
  "/mnt/unionfs/Media/Books/": ["/Books/"],
};

export const SECTIONS = [
  { key: "1", title: "Movies", type: "movie", locations: [MOVIES] },
  { key: "2", title: "TV", type: "show", locations: [TV] },
  { key: "3", title: "Music", type: "artist", locations: ["/mnt/unionfs/Media/Music"] },
  { key: "4", title: "Books", type: "artist", locations: ["/mnt/unionfs/Media/Books"] },
];

const westworld = { id: 1, title: "Westworld", path: "/TV/Westworld" };
const interstellar = { id: 2, title: "Interstellar", year: 2014, folderPath: "/Movies/Interstellar (2014)" };

export const SAME_AS_AUTOSCAN: AutoscanCase[] = [
  {
    name: "sonarr Download scans the season folder",
    route: "sonarr",
    body: { eventType: "Download", series: westworld, episodeFile: { relativePath: "Season 1/Westworld.S01E01.mkv" }, isUpgrade: false },
    folders: [`${TV}/Westworld/Season 1`],
  },
  {
    name: "sonarr EpisodeFileDelete scans the season folder",
    route: "sonarr",
    body: { eventType: "EpisodeFileDelete", series: westworld, episodeFile: { relativePath: "Season 2/Westworld.S02E01.mkv" } },
    folders: [`${TV}/Westworld/Season 2`],
  },
  {
    name: "sonarr Rename scans old and new folders of both seasons, without duplicates",
    route: "sonarr",
    body: {
      eventType: "Rename",
      series: { ...westworld, path: "/TV/Westworld [imdb-tt0475784]" },
      renamedEpisodeFiles: [
        { previousPath: "/TV/Westworld/Season 1/Westworld.S01E01.mkv", relativePath: "Season 1/Westworld.S01E01.mkv" },
        { previousPath: "/TV/Westworld/Season 1/Westworld.S01E02.mkv", relativePath: "Season 1/Westworld.S01E02.mkv" },
        { previousPath: "/TV/Westworld/Season 2/Westworld.S02E01.mkv", relativePath: "Season 2/Westworld.S02E01.mkv" },
      ],
    },
    folders: [
      `${TV}/Westworld/Season 1`,
      `${TV}/Westworld/Season 2`,
      `${TV}/Westworld [imdb-tt0475784]/Season 1`,
      `${TV}/Westworld [imdb-tt0475784]/Season 2`,
    ],
  },
  {
    name: "sonarr SeriesDelete scans the series folder",
    route: "sonarr",
    body: { eventType: "SeriesDelete", series: westworld },
    folders: [`${TV}/Westworld`],
  },
  { name: "sonarr Test is answered 200 and scans nothing", route: "sonarr", body: { eventType: "Test", series: westworld }, folders: [] },
  {
    name: "radarr Download scans the movie folder",
    route: "radarr",
    body: { eventType: "Download", movie: interstellar, movieFile: { relativePath: "Interstellar.2014.UHD.BluRay.2160p.REMUX.mkv" } },
    folders: [`${MOVIES}/Interstellar (2014)`],
  },
  {
    name: "radarr MovieFileDelete scans the movie folder",
    route: "radarr",
    body: { eventType: "MovieFileDelete", movie: interstellar, movieFile: { relativePath: "Interstellar.2014.mkv" } },
    folders: [`${MOVIES}/Interstellar (2014)`],
  },
  {
    name: "radarr MovieDelete scans the movie folder",
    route: "radarr",
    body: { eventType: "MovieDelete", movie: interstellar },
    folders: [`${MOVIES}/Interstellar (2014)`],
  },
  {
    name: "radarr Rename scans the movie folder",
    route: "radarr",
    body: { eventType: "Rename", movie: interstellar },
    folders: [`${MOVIES}/Interstellar (2014)`],
  },
  { name: "radarr Test is answered 200 and scans nothing", route: "radarr", body: { eventType: "Test", movie: interstellar }, folders: [] },
  {
    name: "lidarr Download of one album scans the album folder",
    route: "lidarr",
    body: {
      eventType: "Download",
      artist: { name: "Marshmello", path: "/Music/Marshmello" },
      trackFiles: [
        { path: "/Music/Marshmello/Joytime III (2019)/01 - Down.mp3" },
        { path: "/Music/Marshmello/Joytime III (2019)/02 - Rescue Me.mp3" },
      ],
      isUpgrade: false,
    },
    folders: ["/mnt/unionfs/Media/Music/Marshmello/Joytime III (2019)"],
  },
  {
    name: "lidarr Download of a two-CD album scans both CD folders",
    route: "lidarr",
    body: {
      eventType: "Download",
      artist: { name: "blink-182", path: "/Music/blink-182" },
      trackFiles: [
        { path: "/Music/blink-182/California (2016)/CD 01/01 - Cynical.mp3" },
        { path: "/Music/blink-182/California (2016)/CD 01/02 - Bored to Death.mp3" },
        { path: "/Music/blink-182/California (2016)/CD 02/01 - Parking Lot.mp3" },
        { path: "/Music/blink-182/California (2016)/CD 02/02 - Misery.mp3" },
      ],
      isUpgrade: false,
    },
    folders: ["/mnt/unionfs/Media/Music/blink-182/California (2016)/CD 01", "/mnt/unionfs/Media/Music/blink-182/California (2016)/CD 02"],
  },
  {
    name: "lidarr Test is answered 200 and scans nothing",
    route: "lidarr",
    body: { eventType: "Test", artist: { path: "/Music/x" } },
    folders: [],
  },
  {
    name: "readarr Download scans the book folder",
    route: "readarr",
    body: {
      eventType: "Download",
      author: { name: "Brandon Sanderson", path: "/Books/Brandon Sanderson" },
      bookFiles: [{ path: "/Books/Brandon Sanderson/The Way of Kings (2010)/The Way of Kings.epub" }],
    },
    folders: ["/mnt/unionfs/Media/Books/Brandon Sanderson/The Way of Kings (2010)"],
  },
  {
    name: "readarr Test is answered 200 and scans nothing",
    route: "readarr",
    body: { eventType: "Test", author: { path: "/Books/x" } },
    folders: [],
  },
];

/** What autoscan gets wrong (autoscan.md §2.13) and scanarr gets right. */
export const AUTOSCAN_GETS_WRONG: AutoscanCase[] = [
  {
    // autoscan answers 400 "Required fields are missing": it only reads episodeFile.
    name: "sonarr Import Complete (episodeFiles[]) scans every season folder it names",
    route: "sonarr",
    body: {
      eventType: "Download",
      series: westworld,
      episodeFiles: [
        { relativePath: "Season 3/Westworld.S03E01.mkv" },
        { relativePath: "Season 3/Westworld.S03E02.mkv" },
        { relativePath: "Season 4/Westworld.S04E01.mkv" },
      ],
    },
    folders: [`${TV}/Westworld/Season 3`, `${TV}/Westworld/Season 4`],
  },
  {
    // autoscan queues a scan of the empty folder "" for any unhandled Radarr event.
    name: "radarr Grab is answered 200 and queues nothing",
    route: "radarr",
    body: { eventType: "Grab", movie: interstellar, release: { releaseTitle: "Interstellar.2014.2160p" } },
    folders: [],
  },
  {
    // autoscan's lidarr trigger answers 400 for anything but Download.
    name: "lidarr Rename scans the old and new album folders",
    route: "lidarr",
    body: {
      eventType: "Rename",
      artist: { name: "Marshmello", path: "/Music/Marshmello" },
      renamedTrackFiles: [
        { previousPath: "/Music/Marshmello/Joytime 3/01 - Down.mp3", path: "/Music/Marshmello/Joytime III (2019)/01 - Down.mp3" },
      ],
    },
    folders: ["/mnt/unionfs/Media/Music/Marshmello/Joytime 3", "/mnt/unionfs/Media/Music/Marshmello/Joytime III (2019)"],
  },
];
