import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/lib/logger.js";
import type { FileCheckPolicy } from "../../src/queue/file-checks.js";
import type { FileChecker } from "../../src/delivery/gates.js";
import { startDelivery } from "../../src/delivery/scheduler.js";
import { advanceInSteps, createQueue, flush, recordingTarget, tempDatabase, deliveryTargetOf } from "./helpers.js";

const POLICY: FileCheckPolicy = { maxChecks: 3, delayMs: 60_000, scanFolderOnExhaustion: false };
const FOLDER = "/data/TV/Show/Season 1";
const FILE = `${FOLDER}/Show - S01E01.mkv`;

/** A checker over a set of visible paths that counts its rounds and the files each round asked for. */
function visibleFiles(...initial: string[]) {
  const visible = new Set(initial);
  const rounds: string[][] = [];
  const checker: FileChecker = {
    checkRound: async (files) => {
      rounds.push([...files]);
      return new Set(files.filter((f) => visible.has(f)));
    },
  };
  return { visible, rounds, checker };
}

function setup(policy: Partial<FileCheckPolicy> = {}, initial: string[] = [], db = tempDatabase().db) {
  const fileChecks = { ...POLICY, ...policy };
  const { queue, clock, reads } = createQueue({ db, delayMs: 10_000, fileChecks });
  const target = recordingTarget(clock);
  const files = visibleFiles(...initial);
  const delivery = startDelivery({
    queue,
    targets: [target].map(deliveryTargetOf),
    clock,
    logger: silentLogger(),
    fileChecker: files.checker,
  });
  return { queue, clock, reads, target, files, delivery, fileChecks };
}

const importOf = (...files: string[]) => ({ folder: FOLDER, source: "sonarr", event: "Download", files });

describe("file-exists checks", () => {
  it("delivers at once after the debounce when the imported file is already visible", async () => {
    const { queue, clock, target, files, reads } = setup({}, [FILE]);
    queue.enqueue([importOf(FILE)]);
    // Its quiet time first (files are looked for once it is due), its file remembered unseen.
    expect(reads.listPending()[0]).toMatchObject({ state: "debouncing", files: [{ path: FILE, deleted: false, seen: false }] });
    await advanceInSteps(clock, 10_000, 1_000);
    expect(files.rounds).toEqual([[FILE]]);
    expect(target.scans.map((s) => s.folder)).toEqual([FOLDER]);
  });

  it("checks again every delay until the file appears, one round for every waiting scan", async () => {
    const { queue, clock, target, files, reads } = setup();
    const other = "/data/TV/Other/Season 2/Other - S02E01.mkv";
    queue.enqueue([importOf(FILE), { folder: "/data/TV/Other/Season 2", source: "sonarr", event: "Download", files: [other] }]);
    await advanceInSteps(clock, 10_000, 1_000);
    expect(files.rounds).toEqual([[FILE, other]]);
    expect(target.scans).toEqual([]);
    files.visible.add(FILE);
    await advanceInSteps(clock, 60_000, 5_000);
    expect(files.rounds).toHaveLength(2);
    expect(target.scans.map((s) => s.folder)).toEqual([FOLDER]);
    expect(reads.listPending().map((s) => [s.folder, s.state, s.fileChecks])).toEqual([
      ["/data/TV/Other/Season 2", "waiting-for-files", 2],
    ]);
  });

  it("fails the scan visibly when the file never appears and the folder is not to be scanned anyway", async () => {
    const { queue, clock, target, files, reads } = setup();
    queue.enqueue([importOf(FILE)]);
    await advanceInSteps(clock, 10_000 + 3 * 60_000, 5_000);
    expect(files.rounds).toHaveLength(3);
    expect(target.scans).toEqual([]);
    const [failed] = reads.listFailed();
    expect(failed?.folder).toBe(FOLDER);
    expect(failed?.deliveries[0]?.lastError).toBe(`not scanned: a file never appeared after 3 checks: ${FILE}`);
  });

  it("scans the folder anyway after the last check when SERVER_SCAN_FOLDER_ON_FILE_EXISTS_EXHAUSTION is on", async () => {
    const { queue, clock, target, reads } = setup({ scanFolderOnExhaustion: true });
    queue.enqueue([importOf(FILE)]);
    await advanceInSteps(clock, 10_000 + 3 * 60_000, 5_000);
    expect(target.scans.map((s) => s.folder)).toEqual([FOLDER]);
    expect(reads.recent(1)[0]?.detail).toBe(`scanned the folder anyway: a file never appeared after 3 checks: ${FILE}`);
  });

  it("does not look for deleted files", async () => {
    const { queue, clock, target, files, reads } = setup();
    queue.enqueue([{ folder: FOLDER, source: "sonarr", event: "EpisodeFileDelete", files: [FILE], deletion: true }]);
    expect(reads.listPending()[0]?.state).toBe("debouncing");
    await advanceInSteps(clock, 10_000, 1_000);
    expect(files.rounds).toEqual([]);
    expect(target.scans.map((s) => s.folder)).toEqual([FOLDER]);
    expect(reads.recent(1)[0]?.files).toEqual([{ path: FILE, deleted: true, seen: false }]);
  });

  it("waits for a file that a merged request adds, and keeps the files of absorbed child folders", async () => {
    const { queue, clock, target, files, reads } = setup({}, [FILE]);
    const late = "/data/TV/Show/Season 2/Show - S02E01.mkv";
    queue.enqueue([importOf(FILE)]);
    queue.enqueue([{ folder: "/data/TV/Show", source: "sonarr", event: "Download", files: [late] }]);
    const [scan] = reads.listPending();
    expect(scan?.folder).toBe("/data/TV/Show");
    expect(scan?.files.map((f) => f.path)).toEqual([FILE, late]);
    await advanceInSteps(clock, 10_000, 1_000);
    expect(target.scans).toEqual([]);
    files.visible.add(late);
    await advanceInSteps(clock, 60_000, 5_000);
    expect(target.scans.map((s) => s.folder)).toEqual(["/data/TV/Show"]);
    expect(files.rounds).toEqual([[FILE, late], [late]]);
  });

  it("writes a new scan naming an import waiting, its deliveries held, and one naming only deletions or a folder ready to go", () => {
    const db = tempDatabase().db;
    const { queue } = setup({}, [], db);
    const gone = "/data/TV/Other/Season 1/Other - S01E01.mkv";
    queue.enqueue([importOf(FILE)]);
    queue.enqueue([{ folder: "/data/TV/Other/Season 1", source: "sonarr", event: "EpisodeFileDelete", files: [gone], deletion: true }]);
    queue.enqueue([{ folder: "/data/Movies/Film (2020)", source: "manual", event: "Manual" }]);
    const rows = db
      .prepare(
        `SELECT s.folder, s.files_state AS files, s.file_checks AS checks, s.file_check_at AS checkAt, d.state AS delivery
         FROM scan_queue s JOIN scan_delivery d ON d.scan_id = s.id ORDER BY s.id`,
      )
      .all();
    expect(rows).toEqual([
      { folder: FOLDER, files: "waiting", checks: 0, checkAt: 0, delivery: "waiting" },
      { folder: "/data/TV/Other/Season 1", files: "none", checks: 0, checkAt: 0, delivery: "pending" },
      { folder: "/data/Movies/Film (2020)", files: "none", checks: 0, checkAt: 0, delivery: "pending" },
    ]);
  });

  it("resumes its checks where they were after a restart", async () => {
    const files = tempDatabase();
    const first = setup({}, [], files.db);
    first.queue.enqueue([importOf(FILE)]);
    await advanceInSteps(first.clock, 10_000 + 60_000, 5_000);
    expect(first.files.rounds).toHaveLength(2);
    await first.delivery.stop();
    first.files.visible.add(FILE);

    const { queue, clock, reads } = createQueue({ db: files.reopen(), clock: first.clock, delayMs: 10_000, fileChecks: POLICY });
    const target = recordingTarget(clock);
    const again = visibleFiles();
    startDelivery({ queue, targets: [target].map(deliveryTargetOf), clock, logger: silentLogger(), fileChecker: again.checker });
    await flush();
    expect(reads.listPending()[0]).toMatchObject({ state: "waiting-for-files", fileChecks: 2 });
    await advanceInSteps(clock, 60_000, 5_000);
    // The third and last round finds nothing (this checker sees no file): the scan fails, one round after the restart.
    expect(again.rounds).toEqual([[FILE]]);
    expect(reads.listFailed()[0]?.deliveries[0]?.lastError).toMatch(/after 3 checks/);
  });
});

describe("anchors", () => {
  it("pauses every delivery while an anchor is missing, counts no attempt, and sends each folder once when it is back", async () => {
    const { queue, clock, reads } = createQueue({ delayMs: 0 });
    const target = recordingTarget(clock);
    let present = false;
    let checks = 0;
    const anchors = {
      check: async () => {
        checks += 1;
        return { ok: present };
      },
    };
    startDelivery({ queue, targets: [target].map(deliveryTargetOf), clock, logger: silentLogger(), anchors });
    queue.enqueue([{ folder: "/data/TV/A", source: "manual", event: "Manual" }]);
    queue.enqueue([{ folder: "/data/TV/B", source: "manual", event: "Manual" }]);
    await advanceInSteps(clock, 60_000, 1_000);
    expect(target.scans).toEqual([]);
    expect(checks).toBeGreaterThanOrEqual(6);
    expect(reads.listPending().map((s) => s.deliveries[0]?.attempts)).toEqual([0, 0]);
    present = true;
    await advanceInSteps(clock, 10_000, 1_000);
    expect(target.scans.map((s) => s.folder)).toEqual(["/data/TV/A", "/data/TV/B"]);
    await advanceInSteps(clock, 60_000, 5_000);
    expect(target.scans).toHaveLength(2);
  });

  it("gives a claim back unsent, counting no attempt and no failure, when the anchor vanishes between the claim and the scan call", async () => {
    const { queue, clock, reads } = createQueue({ delayMs: 0 });
    const target = recordingTarget(clock);
    // The first look (before claiming) finds the anchor; the one right before the call does not.
    const answers = [true, false];
    let present = false;
    let checks = 0;
    const anchors = {
      check: async () => {
        checks += 1;
        return { ok: answers.shift() ?? present };
      },
    };
    const delivery = startDelivery({ queue, targets: [target].map(deliveryTargetOf), clock, logger: silentLogger(), anchors });
    queue.enqueue([{ folder: "/data/TV/A", source: "manual", event: "Manual" }]);
    await advanceInSteps(clock, 2_000, 500);
    expect(answers).toEqual([]);
    // No claim and give-back over and over: the failed look holds the claims until the next one (10 s).
    expect(checks).toBe(2);
    expect(target.scans).toEqual([]);
    const [held] = reads.listPending();
    expect(held?.deliveries[0]).toMatchObject({ state: "pending", attempts: 0 });
    expect(held?.deliveries[0]?.lastError ?? null).toBeNull();
    expect(delivery.targetStates().plex).toEqual({ state: "ok", failures: 0 });
    // Open again, as if it had never been claimed: a new request merges into it.
    queue.enqueue([{ folder: "/data/TV/A", source: "manual", event: "Manual" }]);
    expect(reads.listPending()).toHaveLength(1);
    present = true;
    await advanceInSteps(clock, 20_000, 1_000);
    expect(target.scans.map((s) => s.folder)).toEqual(["/data/TV/A"]);
  });
});
