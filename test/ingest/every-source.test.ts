/**
 * Every source goes through the one way in (src/ingest): a path on
 * SERVER_IGNORE_LIST is dropped and a path in no library is refused with the
 * same words, whether a webhook, the manual form, a /triggers route, a
 * watched folder or drive monitoring named it. One real serve on loopback
 * with the fake Plex, the fake Drive and two real watched folders.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import Database from "better-sqlite3";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeDrive, type FakeDrive } from "../fakes/drive.js";
import { tempDir } from "../helpers/cli.js";
import {
  ARR_MAPPINGS,
  postForm,
  postJson,
  startTestService,
  storedScans,
  TEST_PASS,
  waitFor,
  type TestService,
  fakeDriveCloud,
  writeFakeDriveToken,
} from "../helpers/service.js";

const IGNORED_ENTRY = "/data/TV/Hidden/";
const LIBRARIES = "Movies (/data/Movies); TV Shows (/data/TV); Music (/data/Music); Books (/data/Books)";
const inNoLibrary = (folder: string) => `no library of the media server holds ${folder}; libraries: ${LIBRARIES}`;
const ignoredMessage = (requested: string) => `ignored by SERVER_IGNORE_LIST: ${requested} (matched ${JSON.stringify(IGNORED_ENTRY)})`;

type LogLine = Record<string, unknown> & { msg: string };

describe("one way in for every source", () => {
  let t: TestService;
  let drive: FakeDrive;
  let tv: string;
  let other: string;
  const folders = { tv: "", other: "" };

  const logLines = (): LogLine[] =>
    t
      .logs()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as LogLine);
  const logged = (source: string, msg: string) => logLines().find((l) => l.source === source && l.msg === msg);
  const refreshed = (folder: string) => t.plex.refreshes.some((r) => r.path === folder);
  /** Whether any scan of the folder was ever committed (finished scans stay as history). */
  const stored = (folder: string) => storedScans(t).some((s) => s.folder === folder);

  beforeAll(async () => {
    const root = tempDir("scanarr-every-source-");
    tv = path.join(root, "tv");
    other = path.join(root, "other");
    mkdirSync(tv, { recursive: true });
    mkdirSync(other, { recursive: true });
    // An empty watched root is "root-empty" and not watched; give each a file that was there before.
    writeFileSync(path.join(tv, "old.nfo"), "old");
    writeFileSync(path.join(other, "old.nfo"), "old");
    drive = await startFakeDrive();
    const fake = drive;
    fake.seed(() => {
      folders.tv = fake.addFolderPath("Media/TV");
      folders.other = fake.addFolderPath("Media/Other");
    });
    t = await startTestService(
      {
        SERVER_IGNORE_LIST: [IGNORED_ENTRY],
        SERVER_PATH_MAPPINGS: {
          ...ARR_MAPPINGS,
          "/data/TV/": ["/tv/", `${tv}/`, "My Drive/Media/TV/"],
          "/data/Other/": ["/other/", `${other}/`, "My Drive/Media/Other/"],
        },
        WATCH: [{ PATHS: [tv, other], MODE: "events", MIN_AGE: 0 }],
        CLOUD: fakeDriveCloud(fake.url, ["My Drive/Media/"], 3600),
        // Drive monitoring's own filter (SOURCES); the other sources have none.
        SOURCES: { drive: { EXCLUDE: ["/Excluded/"], PRIORITY: -1 } },
      },
      {
        beforeStart: writeFakeDriveToken,
      },
    );
    // The first poll only notes where each change log starts; files added after it are new.
    await t.service.drive?.pollNow();
    const deadline = Date.now() + 20_000;
    for (let ok = false; !ok; ) {
      const health = (await (await fetch(`${t.origin}/health`)).json()) as { watch: Array<{ state: string }> };
      ok = health.watch.length === 2 && health.watch.every((w) => w.state === "ok");
      if (!ok && Date.now() > deadline) throw new Error(`the watchers were not ready within 20 s: ${JSON.stringify(health.watch)}`);
      if (!ok) await new Promise((r) => setTimeout(r, 20));
    }
  });
  afterAll(async () => {
    await t?.stop();
    await drive?.close();
  });

  it("webhook: drops an ignored path, answers 422 for a path in no library, queues the rest", async () => {
    const sonarr = (series: string) => ({
      eventType: "Download",
      series: { id: 1, title: "Show", path: series },
      episodeFile: { id: 1, relativePath: "Season 1/e01.mkv", path: `${series}/Season 1/e01.mkv` },
    });
    const ignored = await postJson(t.base, sonarr("/tv/Hidden/Show"));
    expect(ignored.status).toBe(200);
    expect(ignored.body).toMatchObject({
      status: "ignored",
      source: "sonarr",
      message: ignoredMessage("/tv/Hidden/Show/Season 1/e01.mkv"),
    });
    const unmatched = await postJson(t.base, sonarr("/other/Show"));
    expect(unmatched.status).toBe(422);
    expect(unmatched.body.error).toBe(inNoLibrary("/data/Other/Show/Season 1"));
    expect((await postJson(t.base, sonarr("/tv/Lost"))).status).toBe(202);
    await waitFor(() => refreshed("/data/TV/Lost/Season 1"), 10_000, "the webhook's scan");
    expect(stored("/data/TV/Hidden/Show/Season 1") || stored("/data/Other/Show/Season 1")).toBe(false);
  });

  it("manual form: drops an ignored path and answers 422 for a path in no library, in the same words", async () => {
    const ignored = await postForm(t.base, { eventType: "Manual", filepath: "/tv/Hidden/Other Show/" });
    expect(ignored.status).toBe(200);
    expect(JSON.parse(ignored.text)).toMatchObject({
      status: "ignored",
      source: "manual",
      message: ignoredMessage("/tv/Hidden/Other Show/"),
    });
    const unmatched = await postForm(t.base, { eventType: "Manual", filepath: "/other/Film (2001)/" });
    expect(unmatched.status).toBe(422);
    expect(JSON.parse(unmatched.text).error).toBe(inNoLibrary("/data/Other/Film (2001)"));
  });

  it("autoscan and autopulse routes: drop an ignored path and a path in no library with a 200, in the same words", async () => {
    const triggers = `${t.origin}/${TEST_PASS}/triggers/manual`;
    const autoscan = (dir: string) => fetch(`${triggers}?${new URLSearchParams({ dir })}`, { method: "POST" });
    const autopulse = (p: string) => fetch(`${triggers}?${new URLSearchParams({ path: p })}`);
    for (const res of [await autoscan("/tv/Hidden/Third"), await autopulse("/tv/Hidden/Third")]) {
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: "ignored", trigger: "manual", message: ignoredMessage("/tv/Hidden/Third") });
    }
    for (const res of [await autoscan("/other/Third"), await autopulse("/other/Third")]) {
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        status: "unmatched",
        message: inNoLibrary("/data/Other/Third"),
        unmatched: ["/data/Other/Third"],
      });
    }
  });

  it("watcher: drops an ignored path, logs a path in no library in the same words, and delivers the rest", async () => {
    const hidden = path.join(tv, "Hidden", "Show", "e01.mkv");
    const elsewhere = path.join(other, "Film (2002)", "film.mkv");
    for (const file of [hidden, elsewhere, path.join(tv, "Watched", "Season 1", "e01.mkv")]) {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, "media");
    }
    await waitFor(() => refreshed("/data/TV/Watched/Season 1"), 10_000, "the watched file's scan");
    await waitFor(() => logged("watch", ignoredMessage(hidden)) !== undefined, 10_000, "the ignored file's log line");
    await waitFor(() => logged("watch", inNoLibrary("/data/Other/Film (2002)")) !== undefined, 10_000, "the no-library log line");
    expect(logged("watch", inNoLibrary("/data/Other/Film (2002)"))).toMatchObject({ level: 40, result: "unmatched" });
    expect(stored("/data/TV/Hidden/Show") || stored("/data/Other/Film (2002)")).toBe(false);
  });

  it("drive monitoring: drops an ignored path, logs a path in no library in the same words, and delivers the rest", async () => {
    const hiddenFolder = drive.addFolderPath("Hidden/Drive Show", folders.tv);
    drive.addFile("d01.mkv", hiddenFolder);
    drive.addFile("film.mkv", drive.addFolder("Film (2003)", folders.other));
    drive.addFile("d01.mkv", drive.addFolderPath("Drive Show/Season 1", folders.tv));
    await t.service.drive?.pollNow();
    await waitFor(() => refreshed("/data/TV/Drive Show/Season 1"), 10_000, "the drive file's scan");
    expect(logged("drive", ignoredMessage("My Drive/Media/TV/Hidden/Drive Show/d01.mkv"))).toBeUndefined();
    const accepted = logged("drive", "scan request accepted");
    expect(accepted).toMatchObject({
      queued: ["/data/TV/Drive Show/Season 1"],
      ignored: [`My Drive/Media/TV/Hidden/Drive Show/d01.mkv (matched ${JSON.stringify(IGNORED_ENTRY)})`],
      unmatched: ["/data/Other/Film (2003)"],
    });
    expect(stored("/data/TV/Hidden/Drive Show") || stored("/data/Other/Film (2003)")).toBe(false);
  });

  it("drive monitoring: a page whose only new file is ignored queues nothing; one in no library is logged in the same words", async () => {
    drive.addFile("d02.mkv", drive.addFolderPath("Hidden/Later Show", folders.tv));
    await t.service.drive?.pollNow();
    expect(logged("drive", ignoredMessage("My Drive/Media/TV/Hidden/Later Show/d02.mkv"))).toMatchObject({ result: "ignored" });
    expect(stored("/data/TV/Hidden/Later Show")).toBe(false);
    drive.addFile("film.mkv", drive.addFolder("Film (2004)", folders.other));
    await t.service.drive?.pollNow();
    expect(logged("drive", inNoLibrary("/data/Other/Film (2004)"))).toMatchObject({ level: 40, result: "unmatched" });
    expect(stored("/data/Other/Film (2004)")).toBe(false);
  });

  it("drive monitoring: its SOURCES filter drops a file, the others are queued with its priority", async () => {
    drive.addFile("d03.mkv", drive.addFolderPath("Excluded/Show", folders.tv));
    drive.addFile("d03.mkv", drive.addFolderPath("Kept Show/Season 1", folders.tv));
    await t.service.drive?.pollNow();
    await waitFor(() => refreshed("/data/TV/Kept Show/Season 1"), 10_000, "the kept drive file's scan");
    const accepted = logLines().find(
      (l) => l.source === "drive" && Array.isArray(l.queued) && l.queued.includes("/data/TV/Kept Show/Season 1"),
    );
    expect(accepted?.ignored).toEqual(['My Drive/Media/TV/Excluded/Show/d03.mkv (excluded by SOURCES.drive.EXCLUDE[0] "/Excluded/")']);
    expect(stored("/data/TV/Excluded/Show")).toBe(false);
    const db = new Database(t.paths.database, { readonly: true, fileMustExist: true });
    try {
      expect(db.prepare("SELECT priority FROM scan_queue WHERE folder = ?").get("/data/TV/Kept Show/Season 1")).toEqual({ priority: -1 });
    } finally {
      db.close();
    }
  });
});
