import { Agent, request } from "node:http";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { startFakePlex } from "../fakes/plex.js";
import { spawnServe, writeServeConfig } from "../helpers/child-serve.js";
import { tempDir } from "../helpers/cli.js";
import { ARR_SECTIONS, startTestService, waitFor } from "../helpers/service.js";

interface Outcome {
  status?: number;
  folder: string;
  closing?: boolean;
  error?: string;
}

/** One POST on a keep-alive agent; an error is data here, not a failure. */
function post(agent: Agent, url: string, folder: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const body = new URLSearchParams({ eventType: "Manual", filepath: `${folder}/` }).toString();
    const req = request(url, { method: "POST", agent, headers: { "content-type": "application/x-www-form-urlencoded" } }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode, folder, closing: res.headers.connection === "close" }));
      res.on("error", (error: NodeJS.ErrnoException) => resolve({ folder, error: error.code ?? error.message }));
    });
    req.on("error", (error: NodeJS.ErrnoException) => resolve({ folder, error: error.code ?? error.message }));
    req.end(body);
  });
}

describe("stopping the service under load", () => {
  it("answers every request it received, resets none, and refuses only new connections", async () => {
    const t = await startTestService({ SERVER_SCAN_DELAY: 0 });
    const outcomes: Outcome[] = [];
    const clients = Array.from({ length: 32 }, async (_, c) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      for (let i = 0; ; i++) {
        const outcome = await post(agent, t.base, `/tv/Client ${c}/Season ${i}`);
        outcomes.push(outcome);
        if (outcome.error) break;
      }
      agent.destroy();
    });
    await waitFor(() => outcomes.length >= 500, 20_000, "500 answers under load");
    await t.service.stop();
    await Promise.all(clients);
    await t.plex.close();

    const errors = outcomes.filter((o) => o.error !== undefined);
    const resets = errors.filter((o) => o.error !== "ECONNREFUSED");
    expect(resets).toEqual([]);
    // Every client ended on a refused new connection, after an answer that said Connection: close.
    expect(errors).toHaveLength(32);
    expect(outcomes.filter((o) => o.closing).length).toBeGreaterThanOrEqual(32);
    const answered = outcomes.filter((o) => o.status !== undefined);
    expect(answered.every((o) => o.status === 202)).toBe(true);

    // Each acknowledged request is in the queue (pending or delivered).
    const db = new Database(t.paths.database, { readonly: true });
    const stored = new Set((db.prepare("SELECT folder FROM scan_queue").all() as Array<{ folder: string }>).map((r) => r.folder));
    db.close();
    const missing = answered.map((o) => o.folder.replace("/tv/", "/data/TV/")).filter((f) => !stored.has(f));
    expect(missing).toEqual([]);
  }, 60_000);
});

describe("stopping `scanarr serve` with --log-format json", () => {
  it("writes nothing but JSON lines, the signal included, and exits 0", async () => {
    const plex = await startFakePlex({ sections: ARR_SECTIONS });
    const dir = tempDir();
    writeServeConfig(dir, plex);
    const serve = await spawnServe(dir);
    serve.child.kill("SIGTERM");
    expect(await serve.exited).toBe(0);
    await plex.close();
    const lines = serve
      .output()
      .split("\n")
      .filter((line) => line.trim() !== "");
    const notJson = lines.filter((line) => {
      try {
        JSON.parse(line);
        return false;
      } catch {
        return true;
      }
    });
    expect(notJson).toEqual([]);
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toContain(
      "received SIGTERM, stopping (send it again to stop at once)",
    );
  }, 30_000);
});
