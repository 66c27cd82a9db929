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

describe("crash safety", () => {
  it("keeps every acknowledged request when the process is killed with SIGKILL mid-burst", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "scanarr-crash-"));
    const file = path.join(dir, "data", "scanarr.db");
    try {
      const child = spawn(process.execPath, ["--import", "tsx", path.join(here, "crash-child.ts"), file], {
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
      expect(lastAck).toBeGreaterThanOrEqual(500);
      const { reads } = createQueue({ db: openDatabase(file) });
      const pending = new Set(reads.listPending(1_000_000).map((s) => s.folder));
      const missing = Array.from({ length: lastAck + 1 }, (_, i) => `/data/TV/Show ${i}/Season 1`).filter((f) => !pending.has(f));
      expect(missing).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
