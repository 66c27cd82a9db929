/**
 * An autoscan config with regular-expression rewrites and priorities,
 * imported, behaves as autoscan did: autoscan's rewriter cases and its
 * queue's priority cases (autoscan.md §2.4, §2.6, §2.12), re-expressed over
 * the imported config run through scanarr's mappers and a real SQLite queue.
 */
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseConfigText } from "../config/parse.js";
import type { Library } from "../../src/domain.js";
import { readAutoscan } from "../../src/import/autoscan.js";
import { buildConfig } from "../../src/import/build.js";
import { createIngest } from "../../src/ingest/pipeline.js";
import { createServerMapper, createSourceTable } from "../../src/ingest/sources.js";
import { silentLogger } from "../../src/lib/logger.js";
import { startDelivery } from "../../src/delivery/scheduler.js";
import { advance, createQueue, deferred, flush, recordingTarget, deliveryTargetOf } from "../queue/helpers.js";

const AUTOSCAN = `
minimum-age: 10s
triggers:
  manual: {priority: 0}
  a-train:
    priority: 5
    rewrite:
      - {from: '^/(TV|Movies)/', to: '/mnt/unionfs/Media/$1/'}
    drives:
      - id: 0AMovies
        rewrite: [{from: '^/Films/(.*)$', to: '/mnt/unionfs/Media/Movies/$1'}]
  sonarr:
    - name: sonarr
      priority: 2
      rewrite: [{from: '^/tv/(.*)', to: '/mnt/unionfs/Media/TV/$1'}]
  radarr:
    - name: radarr
      rewrite:
        - {from: '^/movies/', to: '/mnt/unionfs/Media/Movies/'}
        - {from: '^/movies4k/', to: '/mnt/unionfs/Media/Movies 4K/'}
        - {from: '^/archive/(?P<year>\\d{4})/(?P<title>[^/]+)/', to: '/mnt/unionfs/Media/Movies/\${title} (\${year})/'}
targets:
  plex:
    - url: http://plex:32400
      token: plex-token
      rewrite: [{from: '^/mnt/unionfs/Media/', to: '/data/'}]
`;

const MOVIES_4K: Library = { id: "4", title: "Movies 4K", type: "movie", locations: ["/data/Movies 4K"] };

async function imported() {
  const built = await buildConfig(readAutoscan(parse(AUTOSCAN)), { pass: "0123456789abcdef", hashPassword: async () => "" });
  return { ...parseConfigText(JSON.stringify(built.config)), notConverted: built.notConverted };
}

describe("an imported autoscan config rewrites as autoscan did", async () => {
  const { config, notConverted } = await imported();
  const sources = createSourceTable(config);
  const server = createServerMapper(config);
  const mapAs = (source: string, path: string) => (sources.settingsFor(source)?.mapper ?? server).toServerPath(path);

  it("lists nothing of the rewrites or priorities as not converted", () => {
    expect(notConverted.filter((line) => /rewrite|priority/.test(line))).toEqual([]);
  });

  const cases: Array<[string, string, string, string]> = [
    ["a prefix swap", "sonarr", "/tv/Westworld/Season 1/e01.mkv", "/data/TV/Westworld/Season 1/e01.mkv"],
    ["the first rule when it matches", "radarr", "/movies/Interstellar (2014)/i.mkv", "/data/Movies/Interstellar (2014)/i.mkv"],
    ["/movies4k/ apart from /movies/", "radarr", "/movies4k/Interstellar (2014)", "/data/Movies 4K/Interstellar (2014)"],
    ["named groups in Go's syntax", "radarr", "/archive/2014/Interstellar/i.mkv", "/data/Movies/Interstellar (2014)/i.mkv"],
    ["a unicode name", "radarr", "/movies/Amélie (2001)/a.mkv", "/data/Movies/Amélie (2001)/a.mkv"],
    ["an alternation with $1", "a-train", "/TV/Legion/Season 1", "/data/TV/Legion/Season 1"],
    ["a drive's rule before the trigger's", "a-train/0AMovies", "/Films/Interstellar (2014)", "/data/Movies/Interstellar (2014)"],
    ["the trigger's rule when the drive's misses", "a-train/0AMovies", "/TV/Legion/Season 1", "/data/TV/Legion/Season 1"],
    ["the trigger's rules only for another drive", "a-train/0AOther", "/Movies/Heat (1995)", "/data/Movies/Heat (1995)"],
    ["no rule: the path as it came, then Plex's rewrite", "manual", "/mnt/unionfs/Media/Movies/Heat (1995)", "/data/Movies/Heat (1995)"],
    ["no match: unchanged", "radarr", "/data/Movies/Heat (1995)", "/data/Movies/Heat (1995)"],
  ];
  for (const [name, source, input, expected] of cases) {
    it(`${name} (${source})`, () => expect(mapAs(source, input)).toBe(expected));
  }
});

describe("an imported autoscan config ranks scans as autoscan did", async () => {
  const { config } = await imported();

  function setup() {
    const { queue, clock, reads } = createQueue({ delayMs: config.SERVER_SCAN_DELAY * 1000, priorities: config.SERVER_SCAN_PRIORITIES });
    const ingest = createIngest({
      mapper: createServerMapper(config),
      sources: createSourceTable(config),
      ignoreList: [],
      sink: { enqueue: async (requests) => queue.enqueue(requests) },
    });
    const target = recordingTarget(clock);
    target.libraries.push(MOVIES_4K);
    return { queue, clock, reads, ingest, target };
  }

  it("delivers the higher autoscan priority first (A-Train 5, Sonarr 2, manual 0), then the older", async () => {
    const { queue, clock, ingest, target } = setup();
    const blocker = deferred();
    target.behaviour = (folder) => (folder === "/data/Movies/Blocker" ? blocker.promise : undefined);
    startDelivery({ queue, targets: [target].map(deliveryTargetOf), clock, logger: silentLogger(), policy: { concurrencyPerTarget: 1 } });
    await ingest([{ path: "/mnt/unionfs/Media/Movies/Blocker", kind: "folder" }], "manual", "Manual");
    await advance(clock, 10_000); // the blocker is due and holds the only slot
    const arrivals: Array<[string, string, string?]> = [
      ["manual", "/mnt/unionfs/Media/Movies/M1"],
      ["sonarr", "/tv/S1/Season 1"],
      ["radarr", "/movies/R1"],
      ["a-train", "/TV/A1/Season 1", "a-train/0AOther"],
      ["sonarr", "/tv/S2/Season 1"],
      ["a-train", "/Films/A2", "a-train/0AMovies"],
    ];
    for (const [source, path, sourceName] of arrivals) {
      const outcome = await ingest([{ path, kind: "folder" }], source, "Test", sourceName ? { sourceName } : {});
      expect(outcome.result, path).toBe("queued");
      await advance(clock, 1_000);
    }
    await advance(clock, 20_000); // every one is due; the blocker still holds the slot
    blocker.resolve();
    await flush(40);
    expect(target.scans.map((s) => s.folder)).toEqual([
      "/data/Movies/Blocker",
      "/data/TV/A1/Season 1",
      "/data/Movies/A2",
      "/data/TV/S1/Season 1",
      "/data/TV/S2/Season 1",
      "/data/Movies/M1",
      "/data/Movies/R1",
    ]);
  });

  it("raises a folder's priority and never lowers it when requests meet, and takes the latest time", async () => {
    const { clock, ingest, reads } = setup();
    await ingest([{ path: "/tv/U/Season 1", kind: "folder" }], "sonarr", "Download");
    await advance(clock, 3_000);
    await ingest([{ path: "/mnt/unionfs/Media/TV/U/Season 1", kind: "folder" }], "manual", "Manual");
    await ingest([{ path: "/mnt/unionfs/Media/Movies/V", kind: "folder" }], "manual", "Manual");
    await ingest([{ path: "/Movies/V", kind: "folder" }], "a-train", "ATrain");
    const pending = new Map(reads.listPending().map((s) => [s.folder, s]));
    // scanarr's scale: the lower number is delivered first, so autoscan's 2 and 5 are -2 and -5.
    expect(pending.get("/data/TV/U/Season 1")).toMatchObject({ priority: -2, dueAt: clock.now() + 10_000 });
    expect(pending.get("/data/Movies/V")).toMatchObject({ priority: -5 });
  });
});
