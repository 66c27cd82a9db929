import { withPlexEntry } from "../../src/config/plex-entry.js";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import { UserError } from "../../src/domain.js";
import { ManualClock, systemClock } from "../../src/lib/clock.js";
import { resolveInstallPaths } from "../../src/lib/install-paths.js";
import { silentLogger } from "../../src/lib/logger.js";
import { openDatabase } from "../../src/queue/storage/database.js";
import { ScanQueue } from "../../src/queue/scan-queue.js";
import { startService } from "../../src/serve/service.js";
import { startFakePlex } from "../fakes/plex.js";
import { ARR_SECTIONS, startTestService, TEST_PASS, testServiceConfig, type TestService } from "../helpers/service.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

function deliveryRows(file: string) {
  const db = openDatabase(file);
  try {
    return db.prepare("SELECT state, owner FROM scan_delivery").all() as Array<{ state: string; owner: string | null }>;
  } finally {
    db.close();
  }
}

describe("one serve per data directory", () => {
  it("refuses a second serve at once and leaves the running one's claims alone", async () => {
    const first: TestService = await startTestService();
    cleanups.push(() => first.stop());
    // Closed first (cleanups run last-in first-out): the hung scan call then fails at once.
    cleanups.push(() => first.plex.close());
    first.plex.setMode("hang", "refresh");
    const answer = await fetch(first.base, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ eventType: "Manual", filepath: "/tv/Show/Season 1" }),
    });
    expect(answer.status).toBe(202);
    await expect.poll(() => first.plex.requests.some((r) => r.url.includes("/refresh")), { timeout: 5_000 }).toBe(true);
    const claimed = deliveryRows(first.paths.database);
    expect(claimed).toEqual([{ state: "delivering", owner: expect.any(String) }]);

    const second = startService({
      config: withPlexEntry({ ...first.config, SERVER_PORT: 0 }),
      paths: first.paths,
      logger: silentLogger(),
      clock: systemClock,
      env: {},
    });
    await expect(second).rejects.toThrow(UserError);
    await expect(second).rejects.toThrow(/another scanarr serve \(pid \d+\) is already using/);
    expect(deliveryRows(first.paths.database)).toEqual(claimed);
  });

  it("fails within a second or two, naming the database and the process holding it, when another program holds its write lock", async () => {
    const plex = await startFakePlex({ sections: ARR_SECTIONS });
    cleanups.push(() => plex.close());
    const dir = mkdtempSync(path.join(tmpdir(), "scanarr-locked-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const paths = resolveInstallPaths(dir);
    openDatabase(paths.database).close();
    // What a database browser with unsaved edits does: a write transaction left open.
    const holder = spawn(
      process.execPath,
      [
        "-e",
        `const db = require("better-sqlite3")(${JSON.stringify(paths.database)}); db.exec("BEGIN IMMEDIATE"); console.log("held"); setInterval(() => {}, 1000);`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    cleanups.push(() => void holder.kill());
    await new Promise<void>((resolve) => holder.stdout?.once("data", () => resolve()));
    const config = testServiceConfig(plex);

    const started = Date.now();
    const start = startService({ config: withPlexEntry(config), paths, logger: silentLogger(), clock: systemClock, env: {} });
    await expect(start).rejects.toThrow(UserError);
    expect(Date.now() - started).toBeLessThan(3_000);
    const message = await start.then(
      () => "",
      (error: Error) => error.message,
    );
    expect(message).toContain(`cannot open the database ${paths.database}: it is locked (pid ${holder.pid} (node) holds it)`);
    expect(message).toMatch(/a program such as sqlite3 or DB Browser for SQLite/);
  });

  it("claims nothing and delivers nothing when it cannot bind its port, and frees the data directory", async () => {
    const plex = await startFakePlex({ sections: ARR_SECTIONS });
    cleanups.push(() => plex.close());
    const dir = mkdtempSync(path.join(tmpdir(), "scanarr-bind-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const paths = resolveInstallPaths(dir);
    const clock = new ManualClock();
    const db = openDatabase(paths.database);
    new ScanQueue({ db, clock, targets: ["plex"], delayMs: 0, logger: silentLogger() }).enqueue([
      { folder: "/data/TV/Show/Season 1", source: "manual", event: "Manual" },
    ]);
    db.close();
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise<void>((resolve) => taken.close(() => resolve())));
    const port = (taken.address() as { port: number }).port;
    const config = {
      ...defaultConfig(TEST_PASS),
      SERVER_IP: "127.0.0.1",
      SERVER_PORT: port,
      PLEX_LOCAL_URL: plex.url,
      PLEX_TOKEN: plex.token,
    };

    await expect(startService({ config: withPlexEntry(config), paths, logger: silentLogger(), clock, env: {} })).rejects.toMatchObject({
      code: "EADDRINUSE",
    });
    expect(plex.refreshes).toEqual([]);
    expect(deliveryRows(paths.database)).toEqual([{ state: "pending", owner: null }]);

    const next = await startService({
      config: withPlexEntry({ ...config, SERVER_PORT: 0 }),
      paths,
      logger: silentLogger(),
      clock,
      env: {},
    });
    cleanups.push(() => next.stop());
    await plex.waitForRefreshes(1);
    expect(plex.refreshes.map((r) => r.path)).toEqual(["/data/TV/Show/Season 1"]);
  });
});
