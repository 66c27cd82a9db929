import { describe, expect, it } from "vitest";
import type { FileChecker } from "../../src/mount/file-check.js";
import { ABSENT_VERDICT_MS, createFileCheckScope, scopeFileChecker } from "../../src/mount/file-check-scope.js";
import type { ProbeResult } from "../../src/mount/path-probe.js";

/** A probe over a fixed answer per local path (anything else is missing), counting the looks. */
function fakeProbe(answers: Record<string, ProbeResult>) {
  const looked: string[] = [];
  return {
    looked,
    check: async (p: string): Promise<ProbeResult> => {
      looked.push(p);
      return answers[p] ?? { state: "missing" };
    },
  };
}

const ROOTS: Record<string, string> = { "/data/TV": "/data/TV", "/data/Movies": "/data/Movies" };
const rootsOf = (p: string) => Object.keys(ROOTS).filter((r) => p.startsWith(`${r}/`));

function scopeWith(answers: Record<string, ProbeResult>) {
  const lines: string[] = [];
  const probe = fakeProbe(answers);
  const clock = { at: 0 };
  const scope = createFileCheckScope({
    probe,
    existMappings: { "/mnt/media/TV/": ["/data/TV/"] },
    rootsOf,
    logger: { info: (_fields: unknown, msg?: string) => void lines.push(msg ?? "") },
    now: () => clock.at,
  });
  return { scope, probe, lines, clock };
}

describe("the automatic file checks' scope", () => {
  it("checks files under a library folder this machine has (through SERVER_FILE_EXIST_PATH_MAPPINGS), not the others", async () => {
    const { scope, lines } = scopeWith({ "/mnt/media/TV": { state: "folder" } });
    expect(await scope.covers("/data/TV/Show/Season 1/e1.mkv")).toBe(true);
    expect(await scope.covers("/data/Movies/Arrival (2016)/a.mkv")).toBe(false);
    expect(lines).toEqual([
      "file checks on for /data/TV: its folder is on this machine (/mnt/media/TV); scans wait until their files show there",
      "file checks off for /data/Movies: its folder is not on this machine (/data/Movies); scans wait for the quiet time alone",
    ]);
  });

  it("looks at each library folder once, however many files and rounds name it", async () => {
    const { scope, probe } = scopeWith({ "/mnt/media/TV": { state: "empty-folder" } });
    await Promise.all([1, 2, 3].map((n) => scope.covers(`/data/TV/Show/e${n}.mkv`)));
    expect(await scope.covers("/data/TV/Other/e1.mkv")).toBe(true);
    expect(probe.looked).toEqual(["/mnt/media/TV"]);
  });

  it("looks again at a folder not on this machine after a while, so a mount that appears later gets checks without a restart", async () => {
    const answers: Record<string, ProbeResult> = {};
    const { scope, probe, lines, clock } = scopeWith(answers);
    expect(await scope.covers("/data/TV/Show/e1.mkv")).toBe(false);
    clock.at = ABSENT_VERDICT_MS - 1;
    answers["/mnt/media/TV"] = { state: "folder" };
    expect(await scope.covers("/data/TV/Show/e2.mkv")).toBe(false);
    expect(probe.looked).toEqual(["/mnt/media/TV"]);
    clock.at = ABSENT_VERDICT_MS;
    expect(await scope.covers("/data/TV/Show/e3.mkv")).toBe(true);
    // Found here now: it stays so, even when the mount drops (its empty mount point holds the scans).
    answers["/mnt/media/TV"] = { state: "missing" };
    clock.at = 10 * ABSENT_VERDICT_MS;
    expect(await scope.covers("/data/TV/Show/e4.mkv")).toBe(true);
    expect(probe.looked).toEqual(["/mnt/media/TV", "/mnt/media/TV"]);
    expect(lines).toEqual([
      "file checks off for /data/TV: its folder is not on this machine (/mnt/media/TV); scans wait for the quiet time alone",
      "file checks on for /data/TV: its folder is on this machine (/mnt/media/TV); scans wait until their files show there",
    ]);
  });

  it("logs a folder still not on this machine only once, however often it is looked at again", async () => {
    const { scope, probe, lines, clock } = scopeWith({});
    for (let n = 0; n < 3; n++) {
      clock.at = n * ABSENT_VERDICT_MS;
      expect(await scope.covers(`/data/Movies/m${n}.mkv`)).toBe(false);
    }
    expect(probe.looked).toEqual(["/data/Movies", "/data/Movies", "/data/Movies"]);
    expect(lines).toHaveLength(1);
  });

  it("counts a library folder that does not answer (a stalled mount) as local, and looks again next time", async () => {
    const { scope, probe, lines } = scopeWith({ "/mnt/media/TV": { state: "timeout", error: "no answer in 5 s" } });
    expect(await scope.covers("/data/TV/Show/e1.mkv")).toBe(true);
    expect(await scope.covers("/data/TV/Show/e2.mkv")).toBe(true);
    expect(probe.looked).toEqual(["/mnt/media/TV", "/mnt/media/TV"]);
    expect(lines).toEqual([]);
  });

  it("takes no answer from a catch-all library (a command or autoscan target takes every folder from /)", async () => {
    const lines: string[] = [];
    const probe = fakeProbe({ "/": { state: "folder" } });
    const scope = createFileCheckScope({
      probe,
      existMappings: {},
      rootsOf: () => ["/"],
      logger: { info: (_fields: unknown, msg?: string) => void lines.push(msg ?? "") },
      now: () => 0,
    });
    expect(await scope.covers("/data/TV/Show/e1.mkv")).toBe(false);
    expect(probe.looked).toEqual([]);
  });

  it("checks nothing for a file no known library holds (libraries not read yet)", async () => {
    const { scope, probe } = scopeWith({});
    expect(await scope.covers("/elsewhere/e1.mkv")).toBe(false);
    expect(probe.looked).toEqual([]);
  });

  it("narrows a checker's rounds to the covered files: the others count as visible at once", async () => {
    const { scope } = scopeWith({ "/mnt/media/TV": { state: "folder" } });
    const asked: string[][] = [];
    const inner: FileChecker = {
      checkRound: async (files) => {
        asked.push([...files]);
        return new Set<string>();
      },
      runRound: async () => ({ files: [] }),
    };
    const visible = await scopeFileChecker(inner, scope).checkRound(["/data/TV/Show/e1.mkv", "/data/Movies/M/m.mkv"]);
    expect(asked).toEqual([["/data/TV/Show/e1.mkv"]]);
    expect([...visible]).toEqual(["/data/Movies/M/m.mkv"]);
  });
});
