import { isVideo, sidecarOf } from "../../src/paths/sidecars.js";

/** How long the fake server takes to scan, on whose clock. */
export interface FakeScanTiming {
  /** One scan's length; scans run one at a time, each after the one before it. 0: done at the next read. */
  ms: number;
  /** The clock the times are read on (the service's injected clock in tests and the bench). */
  now: () => number;
  /**
   * The server's LibraryMonitorDelay for `POST /Library/Media/Updated`: a
   * reported path waits this long after the last report of its tree (a
   * path that holds it or that it holds) before its walk starts (Jellyfin's
   * and Emby's default: 60 s, one refresher per tree; apis.md). The paths
   * waiting in a tree then go as one walk. 0 or unset: at the next read.
   * An item refresh never waits for it.
   */
  monitorDelayMs?: number;
}

/** What the scans change: the fake's items. */
export interface ScanStore {
  /** Lists a file found on disk (throws for a path in no library, which a scan finds nowhere). */
  add(path: string): void;
  /** Every item's path, folders included. */
  paths(): string[];
  isFolder(path: string): boolean;
  remove(path: string): void;
}

interface Scan {
  /** What the scan looks at: folders (everything under them) or files (themselves). */
  scope: string[];
  from: number;
  until: number;
}

/**
 * The one scan model of the Jellyfin and Emby fakes, for tests and the
 * bench alike: a scan looks at what is on the fake's `disk` within its scope
 * once it has taken `timing.ms`, lists the files found there (but those
 * the server never lists) and drops the items whose file went. A
 * `Media/Updated` path waits out the LibraryMonitorDelay first, and a
 * reported file's scope is its folder (the nearest item the server knows,
 * for a new file); an item refresh starts at once: a folder item's scope is
 * that folder, a collection folder's (the library's own item) its
 * locations, a file item's the file. While a scan is queued or running, the
 * libraries it touches show `RefreshStatus: "Active"`.
 */
export class FakeScans {
  /** Files on the fake's disk: what a scan of their folder lists. */
  readonly disk = new Set<string>();
  /** Paths the server never lists, however often they are scanned (a file it cannot read). */
  readonly neverLists = new Set<string>();
  /** The "Scan Media Library" task runs (a full library scan): every library shows it. */
  libraryScanRunning = false;
  timing: FakeScanTiming = { ms: 0, now: Date.now };
  private scans: Scan[] = [];
  /** Per tree, the Media/Updated paths waiting out the LibraryMonitorDelay, and when the last came. */
  private monitored: Array<{ paths: string[]; lastAt: number }> = [];

  constructor(private readonly store: ScanStore) {}

  /** `POST /Library/Media/Updated`'s paths: walked after the LibraryMonitorDelay, a tree at a time. */
  report(paths: readonly string[]): void {
    const now = this.timing.now();
    for (const path of paths) {
      let tree = this.monitored.find((t) => t.paths.some((p) => p === path || isUnder(p, path) || isUnder(path, p)));
      if (!tree) {
        tree = { paths: [], lastAt: now };
        this.monitored.push(tree);
      }
      tree.paths.push(path);
      tree.lastAt = now;
    }
  }

  /** `POST /Items/{id}/Refresh`: `scope` looked at now, after the scans before it. */
  refresh(scope: readonly string[]): void {
    this.queue([...scope], this.timing.now());
  }

  /** Brings the scans up to the clock: called at every read of the fake. */
  settle(): void {
    const now = this.timing.now();
    const delay = this.timing.monitorDelayMs ?? 0;
    const ready = this.monitored.filter((t) => now >= t.lastAt + delay).sort((a, b) => a.lastAt - b.lastAt);
    this.monitored = this.monitored.filter((t) => !ready.includes(t));
    for (const tree of ready) this.queue([...new Set(tree.paths.map(reportedScope))], tree.lastAt + delay);
    for (let scan = this.scans[0]; scan !== undefined && scan.until <= now; scan = this.scans[0]) {
      this.scans.shift();
      this.finish(scan.scope);
    }
  }

  /** Whether a scan queued or under way touches `location` (a library's folder). */
  scanning(location: string): boolean {
    return this.scans.some((scan) => scan.scope.some((path) => path === location || isUnder(path, location) || isUnder(location, path)));
  }

  private queue(scope: string[], at: number): void {
    const from = Math.max(at, this.scans.at(-1)?.until ?? at);
    this.scans.push({ scope, from, until: from + this.timing.ms });
  }

  private finish(scope: readonly string[]): void {
    const within = (path: string) => scope.some((s) => path === s || isUnder(path, s));
    for (const file of this.disk) {
      if (!within(file) || this.neverLists.has(file)) continue;
      try {
        this.store.add(file);
      } catch {
        // A path in no library is scanned and found nowhere, as on the real server.
      }
    }
    const held = [...this.disk];
    for (const path of this.store.paths()) {
      if (!within(path) || (scope.includes(path) && this.store.isFolder(path))) continue;
      const gone = this.store.isFolder(path) ? !held.some((file) => isUnder(file, path)) : !this.disk.has(path);
      if (gone || this.neverLists.has(path)) this.store.remove(path);
    }
  }
}

/** A reported file is found through its folder (the nearest item a server knows for a new file); a folder is itself. */
function reportedScope(path: string): string {
  return isVideo(path) || sidecarOf(path) ? path.slice(0, path.lastIndexOf("/")) : path;
}

/** Whether `path` is strictly under `folder`, by whole components. */
export function isUnder(path: string, folder: string): boolean {
  return path.startsWith(`${folder.replace(/\/+$/, "")}/`);
}
