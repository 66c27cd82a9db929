import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Server } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createIngest } from "../../src/ingest/pipeline.js";
import { createLogger } from "../../src/lib/logger.js";
import { systemClock } from "../../src/lib/clock.js";
import { createPathMapper } from "../../src/paths/mapper.js";
import { openDatabase } from "../../src/queue/storage/database.js";
import { createGroupCommit } from "../../src/queue/group-commit.js";
import { ScanQueue } from "../../src/queue/scan-queue.js";
import { QueueReads } from "../../src/queue/views/queue-reads.js";
import { createScanServer, listen } from "../../src/server/app.js";
import { evaluateHealth, type HealthFacts } from "../../src/server/health.js";
import { createNamedPlexTarget, type PlexTarget } from "../../src/targets/plex/plex-target.js";
import { startFakePlex, type FakePlex } from "../fakes/plex.js";
import { tempDir } from "../helpers/cli.js";
import { SHOWN_STATES } from "../../src/queue/shown-state.js";

const PASS = "0123456789abcdef0123456789abcdef";
const queue = { pending: 0, failed: 0 };
const ok = { state: "ok" as const, at: 1 };

describe("evaluateHealth", () => {
  it.each<[string, HealthFacts, string[]]>([
    [
      "every target answered and the drive polls",
      { targets: [{ name: "plex", contact: ok }], drive: { enabled: true, running: true, lastPoll: { ok: true } }, queue },
      [],
    ],
    [
      "a target never contacted",
      { targets: [{ name: "plex", contact: { state: "unknown" } }], queue },
      ["target plex has not answered yet"],
    ],
    [
      "a refused token",
      { targets: [{ name: "plex", contact: { state: "refused", at: 2 } }], queue },
      ["target plex refuses the credentials (check its token)"],
    ],
    [
      "a refusal seen by delivery after a good start",
      { targets: [{ name: "plex", contact: ok, delivery: { state: "misconfigured", failures: 3 } }], queue },
      ["target plex refuses the credentials (check its token)"],
    ],
    [
      "an outage seen by delivery",
      { targets: [{ name: "plex", contact: ok, delivery: { state: "unavailable", failures: 1 } }], queue },
      ["target plex is unreachable"],
    ],
    [
      "a target without a recorder, judged by delivery",
      { targets: [{ name: "scanner", delivery: { state: "ok", failures: 0 } }], queue },
      [],
    ],
    [
      "drive monitoring that could not start",
      { targets: [{ name: "plex", contact: ok }], drive: { enabled: true, running: false }, queue },
      [expect.stringMatching(/^drive monitoring is not running/) as unknown as string],
    ],
    [
      "failing drive polls",
      { targets: [{ name: "plex", contact: ok }], drive: { enabled: true, running: true, lastPoll: { ok: false } }, queue },
      ["the last drive poll failed"],
    ],
    [
      "a missing anchor",
      { targets: [{ name: "plex", contact: ok }], anchors: [{ path: "/mnt/unionfs/mounted.bin", present: false }], queue },
      ["anchor /mnt/unionfs/mounted.bin is missing"],
    ],
    ["no target at all", { targets: [], queue }, ["no target is configured"]],
  ])("judges %s", (_name, facts, reasons) => {
    const verdict = evaluateHealth(facts);
    expect(verdict.httpStatus).toBe(reasons.length === 0 ? 200 : 503);
    expect(verdict.body.status).toBe(reasons.length === 0 ? "ok" : "degraded");
    expect(verdict.body.reasons ?? []).toEqual(reasons);
  });
});

describe("GET /health with a real Plex target", () => {
  let plex: FakePlex | undefined;
  let server: Server | undefined;
  let target: PlexTarget | undefined;
  afterEach(async () => {
    target?.stop();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await plex?.close();
  });

  async function start(token: (p: FakePlex) => string): Promise<string> {
    plex = await startFakePlex();
    target = createNamedPlexTarget({ name: "plex", url: plex.url, token: token(plex) }, { timeoutMs: 2_000 });
    const dir = tempDir();
    mkdirSync(path.join(dir, "data"));
    const db = openDatabase(path.join(dir, "data", "scanarr.db"));
    const logger = createLogger({ level: "silent", format: "json" });
    const scanQueue = new ScanQueue({ db, clock: systemClock, targets: ["plex"], delayMs: 0, priorities: {}, logger });
    const t = target;
    server = createScanServer({
      pass: PASS,
      queue: new QueueReads(db, systemClock),
      logger,
      clock: systemClock,
      mapper: createPathMapper({}),
      allowManual: false,
      ingest: createIngest({
        mapper: createPathMapper({}),
        ignoreList: [],
        sink: createGroupCommit(scanQueue, (fn) => scanQueue.batch(fn), ScanQueue.checkRequests),
      }),
      health: () => ({ targets: [{ name: t.name, contact: t.contact() }] }),
    });
    server.once("close", () => db.close());
    const address = await listen(server, "127.0.0.1", 0);
    return `http://127.0.0.1:${address.port}/health`;
  }

  async function get(url: string): Promise<{ status: number; text: string }> {
    const res = await fetch(url);
    return { status: res.status, text: await res.text() };
  }

  it("is degraded before Plex answered and ok once it listed the libraries", async () => {
    const url = await start((p) => p.token);
    const before = await get(url);
    expect(before.status).toBe(503);
    expect(JSON.parse(before.text)).toMatchObject({
      status: "degraded",
      reasons: ["target plex has not answered yet"],
      targets: { plex: { state: "unknown" } },
    });
    await target?.refreshLibraries();
    const after = await get(url);
    expect(after.status).toBe(200);
    const counts = Object.fromEntries(SHOWN_STATES.map((s) => [s, 0]));
    expect(JSON.parse(after.text)).toEqual({ status: "ok", pending: 0, failed: 0, counts, targets: { plex: { state: "ok" } } });
  });

  it("is degraded while Plex refuses the token, without the token or the URL in the answer", async () => {
    const url = await start(() => "a-wrong-token-9876");
    await expect(target?.refreshLibraries()).rejects.toThrow(/401/);
    const { status, text } = await get(url);
    expect(status).toBe(503);
    expect(JSON.parse(text)).toMatchObject({ reasons: ["target plex refuses the credentials (check its token)"] });
    expect(text).not.toContain("a-wrong-token-9876");
    expect(text).not.toContain(plex?.url ?? "?");
    expect(text).not.toContain(PASS);
  });

  it("is degraded while Plex is down, and ok again when it is back", async () => {
    const url = await start((p) => p.token);
    plex?.setMode(503);
    await expect(target?.refreshLibraries()).rejects.toThrow(/503/);
    expect(JSON.parse((await get(url)).text)).toMatchObject({ status: "degraded", reasons: ["target plex is unreachable"] });
    plex?.setMode("ok");
    await target?.refreshLibraries();
    expect((await get(url)).status).toBe(200);
  });
});
