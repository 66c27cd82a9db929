/** What deriveMappings takes and gives (derive-mappings.ts). */

/** One *arr app as set-up read it (`readArrLibrary`). */
export interface DeriveApp {
  /** How the app is named in evidence: "Sonarr", "Radarr (4K)". */
  name: string;
  /** What its items are called, plural: "series", "movies" ("folders" by default). */
  itemsNoun?: string;
  rootFolders: readonly string[];
  /** Item folders (a series', movie's, artist's or author's `path`). */
  itemPaths: readonly string[];
  /** True when itemPaths is a sample: folders the server has and the sample lacks are then not reported. */
  sampled?: boolean;
}

/** One library of a media server, with its roots and its items' folders as that server sees them. */
export interface DeriveLibrary {
  title: string;
  roots: readonly string[];
  itemPaths: readonly string[];
}

/** One media server (a scan target, named as in the config). */
export interface DeriveTarget {
  name: string;
  libraries: readonly DeriveLibrary[];
}

export interface DeriveInput {
  apps: readonly DeriveApp[];
  targets: readonly DeriveTarget[];
}

/** An app root and where one target sees it, found from matching folder names. */
export interface MappingLink {
  target: string;
  app: string;
  /** The app's prefix: a value in SERVER_PATH_MAPPINGS' sense. */
  from: string;
  /** The target's prefix: a key in SERVER_PATH_MAPPINGS' sense. */
  to: string;
  /** Items under `from` whose folder is under `to` in the target, and all items under `from`. */
  matched: number;
  total: number;
  /** The target's libraries holding those folders. */
  libraries: string[];
}

/** An app root for which a target gave no answer: nothing is proposed, the caller asks. */
export interface UnmatchedRoot {
  target: string;
  app: string;
  root: string;
  /** "empty": the app has no items there; "no match": no folder name found in the target; "ambiguous": two places fit equally. */
  reason: "empty" | "no match" | "ambiguous";
  /** The target's library roots, the likeliest first. */
  suggestions: string[];
}

/** Folders one side knows and the other does not: reported, never guessed. */
export interface OneSided {
  target: string;
  app: string;
  /** "app": in the app, not in the target; "server": in the target under the mapped prefix, not in the app. */
  side: "app" | "server";
  /** The prefix they are under, on that side. */
  under: string;
  count: number;
  /** A few of them. */
  examples: string[];
}

export interface DeriveResult {
  /** The prefix mappings to add, per target: only where the target sees another path than the app. */
  mappings: MappingLink[];
  /** Every link found, the identical ones too (what composing per-target mappings needs). */
  links: MappingLink[];
  /** One sentence per finding, for the user: "42 of 42 series under /tv/ are under /data/TV/ in plex". */
  evidence: string[];
  unmatched: UnmatchedRoot[];
  oneSided: OneSided[];
}
