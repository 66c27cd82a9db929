/**
 * SOURCES through one real serve: each way in (a webhook on /<pass>, the
 * manual form, a /triggers/ name, A-Train per drive, a watched folder) gets
 * its own rewrites, filters, priority and delay, through the one pipeline.
 * Scans with a DELAY of an hour stay in the queue, where their priority and
 * due time are read from the database file.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/cli.js";
import { ARR_MAPPINGS, postForm, postJson, startTestService, TEST_PASS, waitFor, type TestService } from "../helpers/service.js";

const HOUR = 3_600;

interface Row {
  folder: string;
  priority: number;
  due_at: number;
  first_requested_at: number;
  source: string;
}

describe("SOURCES on every way in", () => {
  let t: TestService;
  let watched: string;

  const row = (folder: string): Row | undefined => {
    const db = new Database(t.paths.database, { readonly: true, fileMustExist: true });
    try {
      return db.prepare("SELECT folder, priority, due_at, first_requested_at, source FROM scan_queue WHERE folder = ?").get(folder) as
        | Row
        | undefined;
    } finally {
      db.close();
    }
  };
  const waitedSeconds = (r: Row | undefined) => (r === undefined ? undefined : Math.round((r.due_at - r.first_requested_at) / 1000));
  const sonarr = (series: string, file = "Season 1/e01.mkv") => ({
    eventType: "Download",
    series: { id: 1, title: "Show", path: series },
    episodeFile: { id: 1, relativePath: file, path: `${series}/${file}` },
  });

  beforeAll(async () => {
    watched = path.join(tempDir("scanarr-source-settings-"), "incoming");
    mkdirSync(watched, { recursive: true });
    writeFileSync(path.join(watched, "old.nfo"), "old");
    t = await startTestService({
      SERVER_PATH_MAPPINGS: { ...ARR_MAPPINGS, "/data/Movies/": ["/movies/", `${watched}/`] },
      SERVER_PATH_REWRITES: [{ FROM: "^/legacy/", TO: "/tv/" }],
      TRIGGERS: [{ NAME: "sonarr4k", TYPE: "sonarr" }],
      WATCH: [{ PATHS: [watched], MODE: "events", MIN_AGE: 0 }],
      SOURCES: {
        sonarr: {
          REWRITES: [{ FROM: "^/srv/(?P<show>[^/]+)/", TO: "/tv/${show}/" }],
          EXCLUDE: ["/Extras/"],
          PRIORITY: -2,
          DELAY: HOUR,
        },
        sonarr4k: { PRIORITY: -3, DELAY: HOUR },
        manual: { INCLUDE: ["^/movies/"], DELAY: HOUR },
        "a-train": { PRIORITY: -5, DELAY: HOUR, REWRITES: [{ FROM: "^/Media/TV/", TO: "/tv/" }] },
        "a-train/0ADrive": { REWRITES: [{ FROM: "^/Shared/", TO: "/tv/" }] },
        watch: { EXCLUDE: ["/Sample/"], PRIORITY: 7, DELAY: HOUR },
      },
    });
    const deadline = Date.now() + 20_000;
    for (let ok = false; !ok; ) {
      const health = (await (await fetch(`${t.origin}/health`)).json()) as { watch: Array<{ state: string }> };
      ok = health.watch.length === 1 && health.watch[0]?.state === "ok";
      if (!ok && Date.now() > deadline) throw new Error(`the watcher was not ready within 20 s: ${JSON.stringify(health.watch)}`);
      if (!ok) await new Promise((r) => setTimeout(r, 20));
    }
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("webhook: Sonarr's paths take its rewrite, its EXCLUDE, its priority and its delay", async () => {
    const queued = await postJson(t.base, sonarr("/srv/Lost"));
    expect(queued.status).toBe(202);
    expect(queued.body.queued).toEqual(["/data/TV/Lost/Season 1"]);
    const r = row("/data/TV/Lost/Season 1");
    expect(r).toMatchObject({ priority: -2, source: "sonarr" });
    expect(waitedSeconds(r)).toBe(HOUR);
    const excluded = await postJson(t.base, sonarr("/srv/Lost", "Extras/behind.mkv"));
    expect(excluded.status).toBe(200);
    expect(excluded.body).toMatchObject({
      status: "ignored",
      message:
        'ignored by SERVER_IGNORE_LIST or the INCLUDE/EXCLUDE of SOURCES for sonarr: /srv/Lost/Extras/behind.mkv (excluded by SOURCES.sonarr.EXCLUDE[0] "/Extras/")',
    });
    expect(row("/data/TV/Lost/Extras")).toBeUndefined();
    // A path no rule of the source matches falls to SERVER_PATH_REWRITES.
    expect((await postJson(t.base, sonarr("/legacy/Fringe"))).body.queued).toEqual(["/data/TV/Fringe/Season 1"]);
  });

  it("a /triggers/ name has its own settings, not those of the app it takes", async () => {
    const res = await postJson(`${t.origin}/${TEST_PASS}/triggers/sonarr4k`, sonarr("/tv/Dark"));
    expect(res).toMatchObject({ status: 200, body: { status: "queued", trigger: "sonarr4k" } });
    expect(row("/data/TV/Dark/Season 1")).toMatchObject({ priority: -3 });
    // /triggers/sonarr is Sonarr's own name: the same settings as a webhook on /<pass>.
    await postJson(`${t.origin}/${TEST_PASS}/triggers/sonarr`, sonarr("/srv/Heroes"));
    expect(row("/data/TV/Heroes/Season 1")).toMatchObject({ priority: -2 });
  });

  it("manual form and /triggers/manual: only what INCLUDE lets through is queued", async () => {
    const form = await postForm(t.base, { eventType: "Manual", filepath: "/movies/Film (2001)/" });
    expect(form.status).toBe(202);
    expect(waitedSeconds(row("/data/Movies/Film (2001)"))).toBe(HOUR);
    const refused = await fetch(`${t.origin}/${TEST_PASS}/triggers/manual?${new URLSearchParams({ dir: "/tv/Show" })}`, { method: "POST" });
    expect(refused.status).toBe(200);
    expect(await refused.json()).toMatchObject({
      status: "ignored",
      message: expect.stringContaining("matches no pattern of SOURCES.manual.INCLUDE"),
    });
    expect(row("/data/TV/Show")).toBeUndefined();
  });

  it("A-Train: a drive's rules come before the trigger's, and the trigger's priority applies to both", async () => {
    const res = await postJson(`${t.origin}/${TEST_PASS}/triggers/a-train/0ADrive`, {
      created: ["/Shared/Westworld/Season 1", "/Media/TV/Legion/Season 1"],
    });
    expect(res).toMatchObject({ status: 200, body: { status: "queued" } });
    expect(row("/data/TV/Westworld/Season 1")).toMatchObject({ priority: -5 });
    expect(row("/data/TV/Legion/Season 1")).toMatchObject({ priority: -5 });
    // Another drive has no rules of its own: only the trigger's apply, and /Shared/ is in no library.
    const other = await postJson(`${t.origin}/${TEST_PASS}/triggers/a-train/other`, { created: ["/Shared/Nope/Season 1"] });
    expect(other).toMatchObject({ status: 200, body: { status: "unmatched", unmatched: ["/Shared/Nope/Season 1"] } });
  });

  it("watched folder: a file under Sample/ is dropped, the others wait an hour with the watch's priority", async () => {
    for (const file of ["Film (2003)/Sample/s.mkv", "Film (2003)/film.mkv"]) {
      mkdirSync(path.join(watched, path.dirname(file)), { recursive: true });
      writeFileSync(path.join(watched, file), "media");
    }
    await waitFor(() => row("/data/Movies/Film (2003)") !== undefined, 10_000, "the watched file's scan");
    const r = row("/data/Movies/Film (2003)");
    expect(r).toMatchObject({ priority: 7, source: "watch" });
    expect(waitedSeconds(r)).toBe(HOUR);
    await waitFor(() => t.logs().includes('excluded by SOURCES.watch.EXCLUDE[0] \\"/Sample/\\"'), 10_000, "the Sample file's log line");
    expect(row("/data/Movies/Film (2003)/Sample")).toBeUndefined();
  });
});
