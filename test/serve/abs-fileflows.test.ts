import { afterEach, describe, expect, it } from "vitest";
import { withTargetDefaults } from "../../src/config/defaults.js";
import type { TargetConfig } from "../../src/config/types.js";
import { ManualClock } from "../../src/lib/clock.js";
import { startFakeAudiobookshelf, type FakeAudiobookshelf } from "../fakes/audiobookshelf.js";
import { startFakeFileFlows, type FakeFileFlows } from "../fakes/fileflows.js";
import {
  advanceUntil,
  deliveriesOf,
  deliveriesSettled,
  postJson,
  startTestService,
  waitFor,
  type TestService,
} from "../helpers/service.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const PASSWORD = "abs-admin-password-77";

interface Setup {
  t: TestService;
  clock: ManualClock;
  abs: FakeAudiobookshelf;
  fileflows: FakeFileFlows;
}

/**
 * Plex sees /data (the test service's fake); Audiobookshelf /audiobooks,
 * FileFlows /media/movies. Requests name the *arr apps' paths
 * (SERVER_PATH_MAPPINGS: /books → /data/Books, /movies → /data/Movies).
 */
async function start(absPassword = PASSWORD, targetTimeoutMs?: number): Promise<Setup> {
  const abs = await startFakeAudiobookshelf({
    users: [{ username: "root", password: PASSWORD, admin: true }],
    libraries: [{ id: "lib_books", name: "Audiobooks", folders: ["/audiobooks"] }],
  });
  const fileflows = await startFakeFileFlows({
    libraries: [{ Uid: "lib-movies", Name: "Movies", Enabled: true, Path: "/media/movies", Flow: { Uid: "flow-h265", Name: "H265" } }],
  });
  cleanups.push(
    () => abs.close(),
    () => fileflows.close(),
  );
  const TARGETS: TargetConfig[] = [
    withTargetDefaults({
      TYPE: "audiobookshelf",
      NAME: "abs",
      URL: abs.url,
      USERNAME: "root",
      PASSWORD: absPassword,
      PATH_MAPPINGS: { "/audiobooks/": ["/data/Books/"] },
    }),
    withTargetDefaults({
      TYPE: "fileflows",
      NAME: "fileflows",
      URL: fileflows.url,
      PATH_MAPPINGS: { "/media/movies/": ["/data/Movies/"] },
    }),
  ];
  const clock = new ManualClock(Date.now());
  const t = await startTestService({ TARGETS }, { clock, targetTimeoutMs });
  cleanups.push(() => t.stop());
  return { t, clock, abs, fileflows };
}

async function settle(s: Setup): Promise<void> {
  s.clock.advance(11 * 60_000);
  await deliveriesSettled(s.t);
}

describe("the audiobookshelf and fileflows targets through serve", () => {
  it("an audiobook import: Audiobookshelf looks at the file in its own path form; FileFlows, holding no such folder, skips it", async () => {
    const s = await start();
    const file = `/books/O'Brien "Tim"/Ça – 東京/01.m4b`;
    expect((await postJson(s.t.base, { eventType: "Manual", filepath: file })).status).toBe(202);
    expect((await postJson(s.t.base, { eventType: "Manual", filepath: "/books/A/two\nlines.m4b" })).status).toBe(400);
    await settle(s);
    await waitFor(() => s.abs.updates.length >= 1);
    expect(s.abs.updates).toEqual([{ libraryId: "lib_books", path: `/audiobooks/O'Brien "Tim"/Ça – 東京/01.m4b`, type: "add" }]);
    const states = deliveriesOf(s.t, `/data/Books/O'Brien "Tim"/Ça – 東京`);
    expect(states).toMatchObject({ abs: { state: "done" }, plex: { state: "done" }, fileflows: { state: "skipped" } });
    expect(states.fileflows?.error).toContain("no library of fileflows holds");
    expect(s.fileflows.added).toEqual([]);
  });

  it("a movie import: FileFlows gets the new file for its library's flow, and again once it is back after a 503", async () => {
    const s = await start();
    await s.fileflows.setAvailability("down");
    expect((await postJson(s.t.base, { eventType: "Manual", filepath: "/movies/Heat (1995)/Heat.mkv" })).status).toBe(202);
    await settle(s);
    await waitFor(() => (deliveriesOf(s.t, "/data/Movies/Heat (1995)").fileflows?.attempts ?? 0) >= 1);
    expect(deliveriesOf(s.t, "/data/Movies/Heat (1995)").fileflows?.error).toContain("answered 503");
    await s.fileflows.setAvailability("up");
    await advanceUntil(s.clock, () => s.fileflows.added.length >= 1, "the retried FileFlows delivery");
    expect(s.fileflows.added).toEqual([{ FlowUid: "flow-h265", Files: ["/media/movies/Heat (1995)/Heat.mkv"] }]);
    await deliveriesSettled(s.t);
    expect(deliveriesOf(s.t, "/data/Movies/Heat (1995)")).toMatchObject({ fileflows: { state: "done" }, abs: { state: "skipped" } });
  });

  it("holds the Audiobookshelf delivery on a refused login, naming the keys and never the password", async () => {
    const s = await start("wrong-password-123");
    expect((await postJson(s.t.base, { eventType: "Manual", filepath: "/books/Author/Book/01.m4b" })).status).toBe(202);
    await settle(s);
    await waitFor(() => (deliveriesOf(s.t, "/data/Books/Author/Book").abs?.attempts ?? 0) >= 1);
    const abs = deliveriesOf(s.t, "/data/Books/Author/Book").abs;
    expect(abs?.state).not.toMatch(/^(failed|skipped|done)$/);
    expect(abs?.error).toContain("refused the credential (401) when asked to log in; check TARGETS[0].USERNAME and TARGETS[0].PASSWORD");
    expect(s.abs.updates).toEqual([]);
    expect(s.t.logs()).not.toContain("wrong-password-123");
  });

  it("retries Audiobookshelf after it hung past the time-out, and delivers once it answers", async () => {
    const s = await start(PASSWORD, 300);
    await s.abs.setAvailability("hang");
    expect((await postJson(s.t.base, { eventType: "Manual", filepath: "/books/Author/Book/01.m4b" })).status).toBe(202);
    s.clock.advance(11 * 60_000);
    await waitFor(() => (deliveriesOf(s.t, "/data/Books/Author/Book").abs?.attempts ?? 0) >= 1, 5_000, "the timed-out attempt");
    expect(deliveriesOf(s.t, "/data/Books/Author/Book").abs?.error).toContain("did not answer within 300 ms");
    await s.abs.setAvailability("up");
    await advanceUntil(s.clock, () => s.abs.updates.length >= 1, "the retried Audiobookshelf delivery");
    expect(s.abs.updates).toEqual([{ libraryId: "lib_books", path: "/audiobooks/Author/Book/01.m4b", type: "add" }]);
  });
});
