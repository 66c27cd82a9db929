import { describe, expect, it } from "vitest";
import type { EnqueueOutcome, Library, LibraryCatalog, ScanRequest, ScanSink } from "../../src/domain.js";
import { createIngest, PATHS_PER_SLICE, REQUESTS_PER_COMMIT } from "../../src/ingest/pipeline.js";
import { createPathMapper } from "../../src/paths/index.js";
import { catalogOfLibraries } from "../helpers/catalog.js";

const TV: Library = { id: "2", title: "TV", type: "show", locations: ["/data/TV"] };

function recordingSink(): ScanSink & { calls: ScanRequest[][] } {
  const calls: ScanRequest[][] = [];
  return {
    calls,
    async enqueue(requests): Promise<EnqueueOutcome> {
      calls.push(requests);
      return { queued: [...new Set(requests.map((r) => r.folder))], covered: [] };
    },
  };
}

function catalogOf(libraries: Library[]): { catalog: LibraryCatalog; refreshes: number } {
  const counted = { refreshes: 0, catalog: catalogOfLibraries(libraries, () => (counted.refreshes += 1)) };
  return counted;
}

const mapper = createPathMapper({ "/data/TV/": ["/tv/"] });

describe("the way in", () => {
  it("maps each path, scans a file's parent naming the file, and splits deletions into their own request", async () => {
    const sink = recordingSink();
    const ingest = createIngest({ mapper, ignoreList: [], sink });
    const outcome = await ingest(
      [
        { path: "/tv/Show/Season 1/e02.mkv", kind: "file" },
        { path: "/tv/Show/Season 1/e01.mkv", kind: "file", deleted: true },
      ],
      "sonarr",
      "Rename",
    );
    expect(outcome).toEqual({
      result: "queued",
      source: "sonarr",
      event: "Rename",
      queued: ["/data/TV/Show/Season 1"],
      covered: [],
      ignored: [],
      unmatched: [],
    });
    expect(sink.calls).toEqual([
      [
        {
          folder: "/data/TV/Show/Season 1",
          source: "sonarr",
          event: "Rename",
          files: ["/data/TV/Show/Season 1/e02.mkv"],
          // The paths as named, with the mapping that rewrote them: kept for `scanarr status` and the reasons.
          origins: [
            { path: "/tv/Show/Season 1/e02.mkv", mapped: "/data/TV/Show/Season 1/e02.mkv", mappingKey: "/data/TV/", mappingPrefix: "/tv/" },
            { path: "/tv/Show/Season 1/e01.mkv", mapped: "/data/TV/Show/Season 1/e01.mkv", mappingKey: "/data/TV/", mappingPrefix: "/tv/" },
          ],
        },
        { folder: "/data/TV/Show/Season 1", source: "sonarr", event: "Rename", files: ["/data/TV/Show/Season 1/e01.mkv"], deletion: true },
      ],
    ]);
  });

  it("names no files when asked for folders only", async () => {
    const sink = recordingSink();
    await createIngest({ mapper, ignoreList: [], sink })([{ path: "/tv/Show/e.mkv", kind: "file" }], "drive", "DriveChange", {
      nameFiles: false,
    });
    expect(sink.calls).toEqual([
      [
        {
          folder: "/data/TV/Show",
          source: "drive",
          event: "DriveChange",
          origins: [{ path: "/tv/Show/e.mkv", mapped: "/data/TV/Show/e.mkv", mappingKey: "/data/TV/", mappingPrefix: "/tv/" }],
        },
      ],
    ]);
  });

  it("drops paths on SERVER_IGNORE_LIST before or after mapping, and says so when nothing is left", async () => {
    const sink = recordingSink();
    const ingest = createIngest({ mapper, ignoreList: ["/.grab/", "/data/tv/sample"], sink });
    const partly = await ingest(
      [
        { path: "/tv/.grab/e.mkv", kind: "file" },
        { path: "/tv/Sample/e.mkv", kind: "file" },
        { path: "/tv/Show/e.mkv", kind: "file" },
      ],
      "manual",
      "Manual",
    );
    expect(partly).toMatchObject({
      result: "queued",
      queued: ["/data/TV/Show"],
      ignored: ['/tv/.grab/e.mkv (matched "/.grab/")', '/tv/Sample/e.mkv (matched "/data/tv/sample")'],
    });
    const all = await ingest([{ path: "/tv/.grab/x.mkv", kind: "file" }], "watch", "Watch");
    expect(all).toEqual({
      result: "ignored",
      source: "watch",
      event: "Watch",
      message: 'ignored by SERVER_IGNORE_LIST: /tv/.grab/x.mkv (matched "/.grab/")',
    });
    expect(sink.calls).toHaveLength(1);
  });

  it("refuses the whole call, queueing nothing, when one path cannot be mapped", async () => {
    const sink = recordingSink();
    const outcome = await createIngest({ mapper, ignoreList: [], sink })(
      [
        { path: "/tv/Show/e.mkv", kind: "file" },
        { path: "relative/e.mkv", kind: "file" },
      ],
      "manual",
      "Manual",
    );
    expect(outcome.result).toBe("refused");
    expect(sink.calls).toEqual([]);
  });

  it("reports folders no library holds after one refresh, and queues the others", async () => {
    const sink = recordingSink();
    const counted = catalogOf([TV]);
    const ingest = createIngest({ mapper, ignoreList: [], sink, catalog: counted.catalog });
    const none = await ingest([{ path: "/srv/Film/f.mkv", kind: "file" }], "watch", "Watch");
    expect(none).toEqual({
      result: "unmatched",
      source: "watch",
      event: "Watch",
      message: "no library of the media server holds /srv/Film; libraries: TV (/data/TV)",
      paths: ["/srv/Film"],
      libraries: [TV],
    });
    expect(counted.refreshes).toBe(1);
    const some = await ingest(
      [
        { path: "/srv/Film/f.mkv", kind: "file" },
        { path: "/tv/Show/e.mkv", kind: "file" },
      ],
      "watch",
      "Watch",
    );
    expect(some).toMatchObject({ result: "queued", queued: ["/data/TV/Show"], unmatched: ["/srv/Film"] });
    expect(sink.calls).toHaveLength(1);
  });

  it("lets the event loop turn between slices of a big request: mapping, the library check, building the requests, committing", async () => {
    const sink = recordingSink();
    const ingest = createIngest({ mapper, ignoreList: [], sink, catalog: catalogOfLibraries([TV]) });
    const folders = 5 * PATHS_PER_SLICE;
    const paths = Array.from({ length: folders }, (_, i) => ({ path: `/tv/Big/S${i}/e.mkv`, kind: "file" as const }));
    // Counts the turns other work gets while the request is handled: one per setImmediate round.
    let turns = 0;
    let done = false;
    const tick = () => {
      turns += 1;
      if (!done) setImmediate(tick);
    };
    setImmediate(tick);
    const outcome = await ingest(paths, "sonarr", "Download");
    done = true;
    expect(outcome).toMatchObject({ result: "queued" });
    expect(sink.calls.map((c) => c.length)).toEqual(
      Array.from({ length: folders / REQUESTS_PER_COMMIT }, () => REQUESTS_PER_COMMIT).concat(
        folders % REQUESTS_PER_COMMIT ? [folders % REQUESTS_PER_COMMIT] : [],
      ),
    );
    // Four yields in each of the three loops over 5,000 paths or folders; the sink here never yields itself.
    expect(turns).toBeGreaterThanOrEqual(3 * (folders / PATHS_PER_SLICE - 1));
  });
});
