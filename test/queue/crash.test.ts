import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createQueue } from "./helpers.js";
import { openDatabase } from "../../src/queue/storage/database.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "../..");

/** Runs `fn` with a database path in a temp dir of its own, removed after. */
async function inTempDir(fn: (file: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "scanarr-crash-"));
  try {
    await fn(path.join(dir, "data", "scanarr.db"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs crash-child.ts in `mode` until it acknowledged 500 requests, kills it with SIGKILL, answers the last acknowledged. */
async function killMidBurst(file: string, mode: "folders" | "files"): Promise<number> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(here, "crash-child.ts"), file, mode], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let lastAck = -1;
  let buffered = "";
  await new Promise<void>((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", () => resolve());
    child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) lastAck = Number(line.slice(4));
      if (lastAck >= 500 && !child.killed) child.kill("SIGKILL");
    });
  });
  return lastAck;
}

describe("crash safety", () => {
  it("keeps every acknowledged request when the process is killed with SIGKILL mid-burst", async () => {
    await inTempDir(async (file) => {
      const lastAck = await killMidBurst(file, "folders");
      expect(lastAck).toBeGreaterThanOrEqual(500);
      const { reads } = createQueue({ db: openDatabase(file) });
      const pending = new Set(reads.listPending(1_000_000).map((s) => s.folder));
      const missing = Array.from({ length: lastAck + 1 }, (_, i) => `/data/TV/Show ${i}/Season 1`).filter((f) => !pending.has(f));
      expect(missing).toEqual([]);
    });
  });

  it("keeps every acknowledged file and request count when merges into open scans are killed with SIGKILL mid-burst", async () => {
    await inTempDir(async (file) => {
      const lastAck = await killMidBurst(file, "files");
      expect(lastAck).toBeGreaterThanOrEqual(500);
      const db = openDatabase(file);
      const files = new Set((db.prepare("SELECT path FROM scan_file").all() as Array<{ path: string }>).map((r) => r.path));
      const missing = Array.from({ length: lastAck + 1 }, (_, i) => `/data/TV/Show ${i % 10}/Season 1/E${i}.mkv`).filter(
        (f) => !files.has(f),
      );
      expect(missing).toEqual([]);
      const requests = db.prepare("SELECT SUM(requests) AS n, COUNT(*) AS scans FROM scan_queue WHERE state = 'open'").get();
      expect(requests).toEqual({ n: files.size, scans: 10 });
      db.close();
    });
  });
});
