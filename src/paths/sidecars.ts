import { extensionOf, IMAGE_EXTENSIONS, SUBTITLE_EXTENSIONS, VIDEO_EXTENSIONS } from "./extensions.js";

/**
 * Which files belong to which video: the one sidecar table (docs/item-refresh.md
 * shows it). A sidecar is a file a media server reads *with* a video (a
 * subtitle, an .nfo, artwork) and never holds as an item of its own, so a
 * request naming one refreshes the item of its video instead.
 */

/** How a sidecar finds its video(s) in its own folder. */
export type SidecarReach =
  /** The video whose name (without extension) the sidecar's name starts with, then a dot: `Movie.en.forced.srt` → `Movie.mkv`. */
  | "name"
  /** Every video of the folder: `poster.jpg`, `fanart.jpg`, `movie.nfo` in a movie's folder. */
  | "folder";

export interface SidecarRule {
  kind: "subtitle" | "metadata" | "artwork";
  /** Extensions (lower case, no dot). */
  extensions: ReadonlySet<string>;
  /** Names (without extension, lower case) that stand for the whole folder. */
  folderNames: ReadonlySet<string>;
  /** Endings of a name (lower case) after the video's name: `Movie-poster.jpg`. */
  nameSuffixes: readonly string[];
}

export const SIDECAR_RULES: readonly SidecarRule[] = [
  { kind: "subtitle", extensions: SUBTITLE_EXTENSIONS, folderNames: new Set(), nameSuffixes: [] },
  { kind: "metadata", extensions: new Set(["nfo"]), folderNames: new Set(["movie"]), nameSuffixes: [] },
  {
    kind: "artwork",
    extensions: IMAGE_EXTENSIONS,
    folderNames: new Set([
      "poster",
      "fanart",
      "folder",
      "cover",
      "banner",
      "backdrop",
      "background",
      "clearlogo",
      "logo",
      "landscape",
      "thumb",
      "disc",
      "clearart",
    ]),
    nameSuffixes: ["-poster", "-fanart", "-banner", "-backdrop", "-clearlogo", "-logo", "-landscape", "-thumb", "-disc", "-clearart"],
  },
];

/** A file named by a request that is a sidecar: where it is and how it reaches its video. */
export interface Sidecar {
  path: string;
  kind: SidecarRule["kind"];
  /** The folder part of `path`, with its separator. */
  folder: string;
  reach: SidecarReach;
  /** For "name": the sidecar's name with the extension (and an artwork suffix) removed. */
  base: string;
}

/** The sidecar `path` is, or undefined when it is not one (a video, a folder, an unknown file). */
export function sidecarOf(path: string): Sidecar | undefined {
  const cut = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  const name = path.slice(cut + 1);
  const extension = extensionOf(name);
  const rule = SIDECAR_RULES.find((r) => r.extensions.has(extension));
  if (!rule || cut < 0) return undefined;
  const folder = path.slice(0, cut + 1);
  const stem = name.slice(0, name.length - extension.length - 1);
  const lower = stem.toLowerCase();
  const sidecar = { path, kind: rule.kind, folder };
  if (rule.folderNames.has(lower)) return { ...sidecar, reach: "folder", base: "" };
  const suffix = rule.nameSuffixes.find((s) => lower.endsWith(s));
  return { ...sidecar, reach: "name", base: suffix ? stem.slice(0, stem.length - suffix.length) : stem };
}

/** Whether `path` is a video file (by extension). */
export function isVideo(path: string): boolean {
  return VIDEO_EXTENSIONS.has(extensionOf(path));
}

/**
 * Of `videos` (any files; non-videos and other folders' files are left out),
 * the ones `sidecar` belongs to: every video of its folder, or the one whose
 * name the sidecar's starts with (the longest such name when several do:
 * `Movie.en.srt` belongs to `Movie.en.mkv` rather than `Movie.mkv`).
 */
export function videosOf(sidecar: Sidecar, videos: Iterable<string>): string[] {
  const here = [...videos].filter((v) => isVideo(v) && v.startsWith(sidecar.folder) && !/[\\/]/.test(v.slice(sidecar.folder.length)));
  if (sidecar.reach === "folder") return here;
  let best: string[] = [];
  let bestLength = -1;
  for (const video of here) {
    const name = video.slice(sidecar.folder.length);
    const stem = name.slice(0, name.length - extensionOf(name).length - 1);
    if (sidecar.base !== stem && !sidecar.base.startsWith(`${stem}.`)) continue;
    if (stem.length > bestLength) [best, bestLength] = [[video], stem.length];
    else if (stem.length === bestLength) best.push(video);
  }
  return best;
}
