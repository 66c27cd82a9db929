/**
 * A day of Sonarr and Radarr traffic, the same for a given seed: new
 * episodes of airing shows (most in the evening rush), season packs (a
 * `Download` per file 1.5 s apart, then On Import Complete), upgrades,
 * renames and deletes of files the library already holds, new movies and
 * movie upgrades. Nearly every request names a new file (round4.md §5).
 */
import path from "node:path";
import {
  type EpisodeFile,
  type MovieFile,
  type Show,
  episodePath,
  moviePath,
  radarrDownload,
  sonarrDelete,
  sonarrDownload,
  sonarrImportComplete,
  sonarrRename,
} from "./replay-bodies.js";

export const DAY_MS = 24 * 3_600_000;
/** Sonarr's gap between the files of one batch. */
export const BATCH_GAP_MS = 1_500;

export type EventKind = "single" | "pack" | "upgrade" | "rename" | "delete" | "movie" | "movie-upgrade";

export interface Posting {
  /** ms after the day's start. */
  at: number;
  body: Record<string, unknown>;
  /** Files (the *arr's path form) that land on disk just before it is sent, and that go. */
  adds: string[];
  removes: string[];
  /** Files this request is the first to name (none for Import Complete: the batch's Downloads named them). */
  names: string[];
}

export interface DayEvent {
  kind: EventKind;
  /** True when the event imports files (a scan must show them), false for renames and deletes. */
  imports: boolean;
  /** The folder it changes, in the *arr's path form. */
  folder: string;
  postings: Posting[];
}

export interface DayPlan {
  events: DayEvent[];
  /** Files the library holds before the day (the *arr's path form). */
  existing: string[];
}

export const DEFAULT_COUNTS = { singles: 70, packs: 8, upgrades: 20, renames: 12, deletes: 12, movies: 40, movieUpgrades: 8 };
export type PlanCounts = typeof DEFAULT_COUNTS;

const WORDS_A = ["Silent", "Broken", "Golden", "Northern", "Hidden", "Last", "Iron", "Paper", "Crimson", "Distant", "Quiet", "Wild"];
const WORDS_B = [
  "Harbor",
  "Empire",
  "Signal",
  "Orchard",
  "Frontier",
  "Archive",
  "Tide",
  "Garden",
  "Circuit",
  "Lantern",
  "Station",
  "Ridge",
];

/** mulberry32: a small seeded generator, so a seed replays the same day. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export function planDay(seed: number, counts: PlanCounts = DEFAULT_COUNTS): DayPlan {
  const rand = random(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const pick = <T>(list: T[]): T => list.splice(Math.floor(rand() * list.length), 1)[0] as T;
  let nextId = 1_000;
  const titles = WORDS_A.flatMap((a) => WORDS_B.map((b) => `${a} ${b}`));
  const show = (): Show => ({ id: nextId++, title: pick(titles) });
  const anyTime = () => Math.floor(rand() * (DAY_MS - 3_600_000));
  // Most new episodes land in the hours after the evening airings.
  const rushTime = () => (rand() < 0.6 ? 3_600_000 * (1 + rand() * 4) : anyTime());

  // The library before the day: 24 ended shows, two seasons of 10 episodes each; 20 movies.
  const seasons: EpisodeFile[][] = [];
  for (let s = 0; s < 24; s++) {
    const held = show();
    for (const season of [1, 2])
      seasons.push(Array.from({ length: 10 }, (_, e) => ({ show: held, season, episode: e + 1, quality: "WEBDL-720p", id: nextId++ })));
  }
  const heldMovies: MovieFile[] = Array.from({ length: 20 }, (_, i) => ({
    id: nextId++,
    title: `Film ${i + 1}`,
    year: 1990 + i,
    quality: "Bluray-1080p",
  }));
  const existing = [...seasons.flat().map(episodePath), ...heldMovies.map(moviePath)];
  /** A season folder still holding at least `files` of the files held before the day, taken at random. */
  const heldSeason = (files: number): EpisodeFile[] => {
    const left = seasons.filter((season) => season.length >= files);
    return left[Math.floor(rand() * left.length)] as EpisodeFile[];
  };
  const heldFile = () => pick(heldSeason(1));

  const events: DayEvent[] = [];
  const event = (kind: EventKind, file: string, postings: Posting[]) =>
    events.push({ kind, imports: kind !== "rename" && kind !== "delete", folder: path.posix.dirname(file), postings });
  const post = (at: number, body: Posting["body"], change: Partial<Pick<Posting, "adds" | "removes" | "names">>): Posting => ({
    at,
    body,
    adds: change.adds ?? [],
    removes: change.removes ?? [],
    names: change.names ?? [],
  });

  const airing = Array.from({ length: 20 }, () => ({ show: show(), next: 1 }));
  for (let i = 0; i < counts.singles; i++) {
    const entry = airing[int(0, airing.length - 1)] as { show: Show; next: number };
    const f: EpisodeFile = { show: entry.show, season: 1, episode: entry.next++, quality: "WEBDL-1080p", id: nextId++ };
    const at = rushTime();
    const file = episodePath(f);
    const postings = [post(at, sonarrDownload(f), { adds: [file], names: [file] })];
    // Half the Sonarr installs tick On Import Complete: a batch of one gets it too.
    if (rand() < 0.5) postings.push(post(at + BATCH_GAP_MS, sonarrImportComplete([f], `SABnzbd_nzo_${f.id}`), {}));
    event("single", file, postings);
  }
  for (let i = 0; i < counts.packs; i++) {
    const packShow = show();
    const season = int(1, 4);
    const files = Array.from(
      { length: int(6, 12) },
      (_, e): EpisodeFile => ({ show: packShow, season, episode: e + 1, quality: "Bluray-1080p", id: nextId++ }),
    );
    const at = anyTime();
    const postings = files.map((f, k) =>
      post(at + k * BATCH_GAP_MS, sonarrDownload(f), { adds: [episodePath(f)], names: [episodePath(f)] }),
    );
    postings.push(post(at + files.length * BATCH_GAP_MS, sonarrImportComplete(files, `pack-${packShow.id}`), {}));
    event("pack", episodePath(files[0] as EpisodeFile), postings);
  }
  for (let i = 0; i < counts.upgrades; i++) {
    const old = heldFile();
    const f: EpisodeFile = { ...old, quality: "WEBDL-1080p", id: nextId++ };
    const [from, to] = [episodePath(old), episodePath(f)];
    event("upgrade", to, [post(anyTime(), sonarrDownload(f, old), { adds: [to], removes: [from], names: [to, from] })]);
  }
  for (let i = 0; i < counts.renames; i++) {
    const folder = heldSeason(3);
    const renames = Array.from({ length: int(1, 3) }, () => {
      const from = pick(folder);
      return { from, to: { ...from, title: `Chapter ${from.episode}` } };
    });
    const froms = renames.map((r) => episodePath(r.from));
    const tos = renames.map((r) => episodePath(r.to));
    event("rename", tos[0] as string, [post(anyTime(), sonarrRename(renames), { adds: tos, removes: froms, names: [...tos, ...froms] })]);
  }
  for (let i = 0; i < counts.deletes; i++) {
    const gone = heldFile();
    const file = episodePath(gone);
    event("delete", file, [post(anyTime(), sonarrDelete(gone), { removes: [file], names: [file] })]);
  }
  for (let i = 0; i < counts.movies; i++) {
    const m: MovieFile = { id: nextId++, title: `Feature ${i + 1}`, year: 2020 + (i % 6), quality: "WEBDL-1080p" };
    const file = moviePath(m);
    event("movie", file, [post(rushTime(), radarrDownload(m), { adds: [file], names: [file] })]);
  }
  for (let i = 0; i < counts.movieUpgrades; i++) {
    const old = pick(heldMovies);
    const m: MovieFile = { ...old, quality: "Remux-2160p" };
    const [from, to] = [moviePath(old), moviePath(m)];
    event("movie-upgrade", to, [post(anyTime(), radarrDownload(m, old), { adds: [to], removes: [from], names: [to, from] })]);
  }
  return { events, existing };
}
