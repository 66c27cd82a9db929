import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TargetAuthError } from "../../../src/domain.js";
import type { ItemCall } from "../../../src/domain.js";
import { sendItemCalls } from "../../../src/delivery/after-scan/item-calls.js";
import {
  analyzeCallsThroughApi,
  analyzeCallsThroughScanner,
  buildAnalyzeCommands,
  pickAnalyzeItems,
  SCANNER_ANALYZE_BATCH,
} from "../../../src/targets/plex/analyze.js";
import { PlexApiClient } from "../../../src/targets/plex/api.js";
import type { ScannerSettings } from "../../../src/targets/plex-scanner/scanner-command.js";
import { startFakePlex, type FakePlex } from "../../fakes/plex.js";
import { createFakeBin } from "../../scan/helpers/fake-bin.js";

/** The calls sent one after the other as the after-scan work sends them, without an anchor gate. */
async function sent(calls: ItemCall[]) {
  const { done, failed } = await sendItemCalls(calls);
  return { analyzed: done.flatMap((call) => call.keys), failed };
}
const analyzeThroughApi = (api: PlexApiClient, keys: string[]) => sent(analyzeCallsThroughApi(api, keys));
const analyzeThroughScanner = (...args: Parameters<typeof analyzeCallsThroughScanner>) => sent(analyzeCallsThroughScanner(...args));

const episodes = [
  { file: "/tv/S/Season 1/E1.mkv", ratingKey: "11", parentRatingKey: "10" },
  { file: "/tv/S/Season 1/E2.mkv", ratingKey: "12", parentRatingKey: "10" },
  { file: "/tv/S/Season 2/E1.mkv", ratingKey: "21", parentRatingKey: "20" },
];
const movie = { file: "/movies/Up (2009)/Up.mkv", ratingKey: "30" };

describe("pickAnalyzeItems", () => {
  it("gives one entry per item, even when several files or scans name it", () => {
    const twoParts = { file: "/movies/Up (2009)/Up - pt2.mkv", ratingKey: "30" };
    expect(pickAnalyzeItems([...episodes, movie, twoParts, ...episodes], false)).toEqual(["11", "12", "21", "30"]);
  });

  it("with PLEX_ANALYZE_DIRECTORY gives each season once, and a movie itself", () => {
    expect(pickAnalyzeItems([...episodes, movie], true)).toEqual(["10", "20", "30"]);
  });
});

describe("analyzeThroughApi", () => {
  let plex: FakePlex;
  beforeEach(async () => {
    plex = await startFakePlex();
  });
  afterEach(async () => {
    await plex.close();
  });

  it("calls PUT analyze once per item", async () => {
    const keys = ["/tv/A/Season 1/E1.mkv", "/tv/A/Season 1/E2.mkv"].map((f) => plex.addItem(f.replace("/tv", "/data/TV-Shows")).ratingKey);
    const report = await analyzeThroughApi(new PlexApiClient({ baseUrl: plex.url, token: plex.token }), keys);
    expect(report).toEqual({ analyzed: keys, failed: [] });
    expect(plex.analyzed).toEqual(keys);
    expect(plex.requests.every((r) => r.method === "PUT")).toBe(true);
  });

  it("stops at a refused token instead of sending calls that would all be refused", async () => {
    const keys = ["a", "b", "c"].map((n) => plex.addItem(`/data/Movies/${n}.mkv`).ratingKey);
    const shared = new PlexApiClient({ baseUrl: plex.url, token: plex.sharedToken });
    const report = await analyzeThroughApi(shared, keys);
    expect(report.analyzed).toEqual([]);
    expect(report.failed.map((f) => f.ratingKey)).toEqual(keys);
    expect(report.failed.every((f) => f.error instanceof TargetAuthError)).toBe(true);
    expect(plex.requests).toHaveLength(1);
  });

  it("goes on past an item Plex no longer has, and reports it", async () => {
    const kept = plex.addItem("/data/Movies/kept.mkv").ratingKey;
    const report = await analyzeThroughApi(new PlexApiClient({ baseUrl: plex.url, token: plex.token }), ["99999", kept]);
    expect(report.analyzed).toEqual([kept]);
    expect(report.failed.map((f) => f.ratingKey)).toEqual(["99999"]);
  });
});

describe("analyze through Plex Media Scanner", () => {
  const settings = (scanner: string, mode: ScannerSettings["mode"]): ScannerSettings => ({
    scanner,
    ldLibraryPath: "/usr/lib/plexmediaserver/lib",
    supportDir: "",
    mode,
  });

  it("builds --analyze or --analyze-deeply with the items comma-separated, in batches", () => {
    const keys = Array.from({ length: SCANNER_ANALYZE_BATCH + 2 }, (_, i) => String(100 + i));
    const direct = buildAnalyzeCommands(settings("/plex/Plex Media Scanner", { kind: "direct" }), "basic", keys);
    expect(direct.map((c) => c.args[0])).toEqual(["--analyze", "--analyze"]);
    expect(direct[1]).toEqual({
      file: "/plex/Plex Media Scanner",
      args: ["--analyze", "--item", `${100 + SCANNER_ANALYZE_BATCH},${101 + SCANNER_ANALYZE_BATCH}`],
      env: { LD_LIBRARY_PATH: "/usr/lib/plexmediaserver/lib" },
    });
    const mode = { kind: "docker" as const, container: "plex", user: "abc" };
    const [docker, ...more] = buildAnalyzeCommands(settings("/plex/Plex Media Scanner", mode), "deep", ["7"]);
    expect(more).toEqual([]);
    expect(docker?.file).toBe("docker");
    expect(docker?.args.slice(-4)).toEqual(["/plex/Plex Media Scanner", "--analyze-deeply", "--item", "7"]);
    expect(buildAnalyzeCommands(settings("/x", { kind: "direct" }), "off", ["7"])).toEqual([]);
  });

  it("runs the scanner with the items and reports them analyzed, or failed with the reason", async () => {
    const bin = createFakeBin();
    const ok = await analyzeThroughScanner(
      settings(bin.scanner, { kind: "sudo", user: "plex", nonInteractive: true }),
      "deep",
      ["11", "12"],
      {
        env: bin.env,
        timeoutMs: 10_000,
      },
    );
    expect(ok).toEqual({ analyzed: ["11", "12"], failed: [] });
    expect(bin.records().find((r) => r.tool === "scanner")?.argv).toEqual(["--analyze-deeply", "--item", "11,12"]);
    const failing = await analyzeThroughScanner(settings(bin.scanner, { kind: "direct" }), "basic", ["13"], {
      env: { ...bin.env, FAKE_SCANNER_EXIT: "3" },
      timeoutMs: 10_000,
    });
    expect(failing.analyzed).toEqual([]);
    expect(failing.failed[0]?.error.message).toContain("exited with code 3");
  });
});
