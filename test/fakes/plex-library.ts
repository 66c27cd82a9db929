/** A library as the fake serves it; `key` is the section id. */
export interface FakeSection {
  key: string;
  title: string;
  type: string;
  locations: string[];
}

/** A file Plex holds as an item (movie, episode, track, photo). */
export interface FakeItem {
  ratingKey: string;
  sectionId: string;
  file: string;
  type: string;
  /** The season or album: one per folder of a show or music section. */
  parentRatingKey?: string;
  /** Set when the file went missing at a refresh: the item sits in the trash until emptyTrash. */
  deletedAt?: number;
}

/**
 * How long a section stays `refreshing` after a refresh call: a number of
 * section polls, until finishRefresh, or a time: each scan takes `ms` on
 * `now`'s clock, after the scans before it (Plex runs them one at a time),
 * and its files become items when it ends.
 */
export type RefreshDuration = number | "manual" | { ms: number; now: () => number };

const ITEM_TYPES: Record<string, string> = { show: "episode", movie: "movie", artist: "track", photo: "photo" };
const WITH_PARENT = new Set(["show", "artist", "photo"]);

/**
 * The media side of the fake Plex: files on "disk" (what a refresh can find),
 * items Plex knows with their ratingKeys, the sections being refreshed, and
 * the trash. A refresh of a folder turns the files on disk under it into
 * items and moves items whose file is gone into the trash, when the refresh
 * finishes: at once, after a number of section polls, or when the test says.
 */
export class FakeMediaLibrary {
  readonly disk = new Set<string>();
  readonly items = new Map<string, FakeItem>();
  private readonly parents = new Map<string, string>();
  private readonly running = new Map<string, { paths: Array<string | null>; pollsLeft: number | "manual" }>();
  /** Timed scans, in the order they end. */
  private readonly timed: Array<{ sectionId: string; path: string | null; until: number }> = [];
  private nextKey = 1000;
  duration: RefreshDuration = 0;

  constructor(private sections: () => FakeSection[]) {}

  /** A file Plex already holds, as after an earlier scan. */
  addItem(file: string): FakeItem {
    this.disk.add(file);
    const section = this.sectionOf(file);
    if (!section) throw new Error(`fake Plex: ${file} is in no section`);
    const existing = this.items.get(file);
    if (existing) return existing;
    const item: FakeItem = { ratingKey: String(this.nextKey++), sectionId: section.key, file, type: ITEM_TYPES[section.type] ?? "movie" };
    if (WITH_PARENT.has(section.type)) item.parentRatingKey = this.parentOf(parentDir(file));
    this.items.set(file, item);
    return item;
  }

  /** Starts (or extends) a refresh of `path` (null: the whole section). */
  startRefresh(sectionId: string, path: string | null): void {
    if (typeof this.duration === "object") {
      const start = Math.max(this.duration.now(), this.timed.at(-1)?.until ?? 0);
      this.timed.push({ sectionId, path, until: start + this.duration.ms });
      return;
    }
    const current = this.running.get(sectionId);
    if (this.duration === 0 && !current) return this.apply(sectionId, [path]);
    const pollsLeft =
      current?.pollsLeft === "manual" || this.duration === "manual" ? "manual" : Math.max(Number(current?.pollsLeft ?? 0), this.duration);
    this.running.set(sectionId, { paths: [...(current?.paths ?? []), path], pollsLeft });
  }

  /** Whether the section shows `refreshing` in this poll; a counted refresh finishes after its last poll. */
  pollRefreshing(sectionId: string): boolean {
    if (this.isTimed(sectionId)) return true;
    const state = this.running.get(sectionId);
    if (!state) return false;
    if (state.pollsLeft === "manual") return true;
    state.pollsLeft -= 1;
    if (state.pollsLeft <= 0) this.finish(sectionId);
    return true;
  }

  isRefreshing(sectionId: string): boolean {
    return this.running.has(sectionId) || this.isTimed(sectionId);
  }

  /** Ends the timed scans whose time has come: the fake looks before it answers anything. */
  settle(): void {
    if (typeof this.duration !== "object") return;
    const now = this.duration.now();
    for (let scan = this.timed[0]; scan !== undefined && scan.until <= now; scan = this.timed[0]) {
      this.timed.shift();
      this.apply(scan.sectionId, [scan.path]);
    }
  }

  private isTimed(sectionId: string): boolean {
    this.settle();
    return this.timed.some((scan) => scan.sectionId === sectionId);
  }

  finish(sectionId: string): void {
    const state = this.running.get(sectionId);
    this.running.delete(sectionId);
    if (state) this.apply(sectionId, state.paths);
  }

  /** Removes the section's trashed items for good; returns how many. */
  emptyTrash(sectionId: string): number {
    let removed = 0;
    for (const [file, item] of this.items) {
      if (item.sectionId === sectionId && item.deletedAt !== undefined) {
        this.items.delete(file);
        removed += 1;
      }
    }
    return removed;
  }

  trashCount(sectionId: string): number {
    return [...this.items.values()].filter((i) => i.sectionId === sectionId && i.deletedAt !== undefined).length;
  }

  findItem(ratingKey: string): FakeItem | undefined {
    return [...this.items.values()].find((i) => i.ratingKey === ratingKey);
  }

  isParent(ratingKey: string): boolean {
    return [...this.parents.values()].includes(ratingKey);
  }

  /** The names of the sub-folders and the items directly inside `dir`, as the folder view shows them. */
  listDir(sectionId: string, dir: string): { folders: string[]; items: FakeItem[] } {
    const folders = new Set<string>();
    const items: FakeItem[] = [];
    for (const item of this.items.values()) {
      if (item.sectionId !== sectionId || !isUnder(dir, item.file)) continue;
      const rest = item.file.slice(dir.length + 1).split("/");
      if (rest.length === 1) items.push(item);
      else if (rest[0]) folders.add(rest[0]);
    }
    return { folders: [...folders].sort(), items };
  }

  sectionOf(file: string): FakeSection | undefined {
    return this.sections().find((s) => s.locations.some((l) => isUnder(l, file)));
  }

  private apply(sectionId: string, paths: Array<string | null>): void {
    const section = this.sections().find((s) => s.key === sectionId);
    if (!section) return;
    const covered = (file: string): boolean =>
      section.locations.some((l) => isUnder(l, file)) && paths.some((p) => p === null || isUnder(p, file));
    for (const file of this.disk) if (covered(file) && !this.items.get(file)) this.addItem(file);
    for (const item of this.items.values()) {
      if (item.sectionId !== sectionId || !covered(item.file)) continue;
      if (this.disk.has(item.file)) delete item.deletedAt;
      else item.deletedAt ??= 1_700_000_000;
    }
  }

  private parentOf(dir: string): string {
    let key = this.parents.get(dir);
    if (!key) {
      key = String(this.nextKey++);
      this.parents.set(dir, key);
    }
    return key;
  }
}

/** Whether `path` is `dir` or inside it, by whole components. */
export function isUnder(dir: string, path: string): boolean {
  const base = dir.replace(/\/+$/, "");
  return path === base || path.startsWith(`${base}/`);
}

function parentDir(file: string): string {
  return file.slice(0, file.lastIndexOf("/"));
}
