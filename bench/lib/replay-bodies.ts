/**
 * Sonarr and Radarr webhook bodies for the day replay (replay-day.ts),
 * built from the shared fixtures' real payloads with the names, numbers and
 * paths of the replayed library put in.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { SHARED_FIXTURES_DIR } from "../../test/helpers/shared-fixtures.js";

type Json = Record<string, unknown>;

const cache = new Map<string, Json>();

/** A fresh copy of a webhook fixture (the shared fixtures' webhooks/<name>.json). */
function fixture(name: string): Json {
  let body = cache.get(name);
  if (!body) {
    body = JSON.parse(readFileSync(path.join(SHARED_FIXTURES_DIR, "webhooks", `${name}.json`), "utf8")) as Json;
    cache.set(name, body);
  }
  return structuredClone(body);
}

const first = (body: Json, key: string): Json => (body[key] as Json[])[0] as Json;

export interface Show {
  id: number;
  title: string;
}

/** An episode file as Sonarr names it, in Sonarr's path form (/tv/…). */
export interface EpisodeFile {
  show: Show;
  season: number;
  episode: number;
  quality: string;
  id: number;
  /** The episode title in the file name. */
  title?: string;
}

const pad = (n: number) => String(n).padStart(2, "0");

export function episodeRelative(f: EpisodeFile): string {
  return `Season ${f.season}/${f.show.title} - S${pad(f.season)}E${pad(f.episode)} - ${f.title ?? `Episode ${f.episode}`} ${f.quality}.mkv`;
}

export function episodePath(f: EpisodeFile): string {
  return `/tv/${f.show.title}/${episodeRelative(f)}`;
}

function series(body: Json, show: Show): void {
  const slug = show.title.toLowerCase().replaceAll(" ", "-");
  Object.assign(body.series as Json, { id: show.id, title: show.title, titleSlug: slug, path: `/tv/${show.title}` });
}

function episodeOf(template: Json, f: EpisodeFile): Json {
  return { ...template, id: f.id, seriesId: f.show.id, seasonNumber: f.season, episodeNumber: f.episode, title: `Episode ${f.episode}` };
}

function fileEntry(template: Json, f: EpisodeFile): Json {
  const scene = `${f.show.title.replaceAll(" ", ".")}.S${pad(f.season)}E${pad(f.episode)}.${f.quality}`;
  return { ...template, id: f.id, relativePath: episodeRelative(f), path: episodePath(f), quality: f.quality, sceneName: scene };
}

/** Sonarr's On Import (`Download`) of one file; an upgrade names the file it replaced in `deletedFiles`. */
export function sonarrDownload(f: EpisodeFile, replaced?: EpisodeFile): Json {
  const body = fixture(replaced ? "sonarr-download-upgrade" : "sonarr-download");
  series(body, f.show);
  body.episodes = [episodeOf(first(body, "episodes"), f)];
  body.episodeFile = fileEntry(body.episodeFile as Json, f);
  body.downloadId = `SABnzbd_nzo_${f.id}`;
  if (replaced) body.deletedFiles = [fileEntry(first(body, "deletedFiles"), replaced)];
  return body;
}

/** Sonarr v4's On Import Complete: `Download` with `episodeFiles[]` for the whole batch. */
export function sonarrImportComplete(files: EpisodeFile[], downloadId: string): Json {
  const body = fixture("sonarr-download-import-complete");
  const show = (files[0] as EpisodeFile).show;
  series(body, show);
  const episode = first(body, "episodes");
  const file = first(body, "episodeFiles");
  body.episodes = files.map((f) => episodeOf(episode, f));
  body.episodeFiles = files.map((f) => fileEntry(file, f));
  Object.assign(body, { fileCount: files.length, destinationPath: `/tv/${show.title}`, downloadId });
  return body;
}

/** Sonarr's Rename: each file's previous and new path. */
export function sonarrRename(renames: Array<{ from: EpisodeFile; to: EpisodeFile }>): Json {
  const body = fixture("sonarr-rename");
  series(body, (renames[0] as { from: EpisodeFile }).from.show);
  const template = first(body, "renamedEpisodeFiles");
  body.renamedEpisodeFiles = renames.map(({ from, to }) => ({
    ...fileEntry(template, to),
    previousRelativePath: episodeRelative(from),
    previousPath: episodePath(from),
  }));
  return body;
}

/** Sonarr's EpisodeFileDelete. */
export function sonarrDelete(f: EpisodeFile): Json {
  const body = fixture("sonarr-episode-file-delete");
  series(body, f.show);
  body.episodes = [episodeOf(first(body, "episodes"), f)];
  body.episodeFile = fileEntry(body.episodeFile as Json, f);
  body.deleteReason = "manual";
  return body;
}

export interface MovieFile {
  id: number;
  title: string;
  year: number;
  quality: string;
}

export const movieFolder = (m: MovieFile) => `/movies/${m.title} (${m.year})`;
export const moviePath = (m: MovieFile) => `${movieFolder(m)}/${m.title} (${m.year}) ${m.quality}.mkv`;

function movieEntry(template: Json, m: MovieFile): Json {
  return { ...template, id: m.id, relativePath: path.posix.basename(moviePath(m)), path: moviePath(m), quality: m.quality };
}

/** Radarr's On Import (`Download`); an upgrade names the file it replaced in `deletedFiles`. */
export function radarrDownload(m: MovieFile, replaced?: MovieFile): Json {
  const body = fixture(replaced ? "radarr-download-upgrade" : "radarr-download");
  Object.assign(body.movie as Json, { id: m.id, title: m.title, year: m.year, folderPath: movieFolder(m) });
  body.movieFile = movieEntry(body.movieFile as Json, m);
  body.downloadId = `SABnzbd_nzo_m${m.id}`;
  if (replaced) body.deletedFiles = [movieEntry(first(body, "deletedFiles"), replaced)];
  return body;
}
