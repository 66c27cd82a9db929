import { isVideo, sidecarOf } from "../../src/paths/sidecars.js";

/**
 * The scans a Jellyfin or Emby fake runs after a report (Media/Updated, or
 * the plugin's ScanPath): a scan stays under way for `scanPolls` reads of
 * the scheduled tasks (the first call of every confirmation poll), its
 * library's virtual folder showing `RefreshStatus: "Active"` meanwhile, then
 * lists what it found: a reported video, and the videos on the fake's disk
 * under a reported folder (a reported file's folder, which the servers scan
 * for it), except those the server never lists.
 */
export class FakeScans {
  private pending: Array<{ paths: readonly string[]; polls: number }> = [];
  /** Paths the server never lists, however often they are scanned (a file it cannot read). */
  readonly neverLists = new Set<string>();
  /** Files on the fake's disk: a scan of their folder lists them. */
  readonly disk = new Set<string>();
  /** The "Scan Media Library" task runs (a full library scan): every library shows it. */
  libraryScanRunning = false;

  constructor(
    /** Task-list reads a scan stays under way; 0: its files are listed at the next read. */
    public scanPolls: number,
    private readonly list: (path: string) => void,
  ) {}

  report(paths: readonly string[]): void {
    if (paths.length > 0) this.pending.push({ paths, polls: this.scanPolls });
  }

  /** One read of the task list: the scans whose time is up list their files; the others come a read closer. */
  tick(): void {
    const due = this.pending.filter((scan) => scan.polls <= 0);
    this.pending = this.pending.filter((scan) => scan.polls > 0);
    for (const scan of this.pending) scan.polls -= 1;
    for (const scan of due) for (const path of scan.paths) this.finish(path);
  }

  /** Whether a scan under way touches a path in `location` (the library's folder). */
  scanning(location: string): boolean {
    const root = `${location.replace(/\/+$/, "")}/`;
    return this.pending.some((scan) => scan.paths.some((path) => path.startsWith(root)));
  }

  private finish(path: string): void {
    const folder = isVideo(path) || sidecarOf(path) ? path.slice(0, path.lastIndexOf("/")) : path;
    const under = `${folder.replace(/\/+$/, "")}/`;
    const found = [...this.disk].filter((file) => file.startsWith(under));
    if (isVideo(path)) found.push(path);
    for (const file of new Set(found)) {
      if (this.neverLists.has(file)) continue;
      try {
        this.list(file);
      } catch {
        // A path in no library is scanned and found nowhere, as on the real server.
      }
    }
  }
}
