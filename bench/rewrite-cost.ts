/**
 * What rewrites cost on the way in (issue 24), without HTTP or SQLite in the
 * way: the one ingest pipeline (`createIngest`, a sink that only counts)
 * called with one Sonarr file path, in rounds alternating three configs: no
 * rewrites (the reference), SERVER_PATH_REWRITES with three rules none of
 * which matches, and those plus Sonarr's own rule that matches, an EXCLUDE
 * and a PRIORITY. Prints the median µs per call of each and its ratio to the
 * reference of the same rounds.
 *
 *   node --import tsx bench/rewrite-cost.ts [callsPerRound=100000] [rounds=7]
 */
import { parseConfigText } from "../src/config/load.js";
import type { Config } from "../src/config/types.js";
import { TARGET_CONFIGS } from "../src/targets/registry.js";
import { createIngest, type Ingest } from "../src/ingest/pipeline.js";
import { createServerMapper, createSourceTable } from "../src/ingest/sources.js";

const [calls = 100_000, rounds = 7] = process.argv.slice(2).map(Number);
const BASE = { SERVER_PASS: "0123456789abcdef", SERVER_PATH_MAPPINGS: { "/data/TV/": ["/tv/"], "/data/Movies/": ["/movies/"] } };
const GLOBAL = [
  { FROM: "^/downloads/complete/(.*)", TO: "/tv/$1" },
  { FROM: "(?i)^/TV4K/(?P<rest>.*)", TO: "/tv/${rest}" },
  { FROM: "^/srv/media/([^/]+)/", TO: "/tv/$1/" },
];
const cases: Array<[string, Record<string, unknown>]> = [
  ["no rewrites (reference)", {}],
  ["3 global rewrites, none matches", { SERVER_PATH_REWRITES: GLOBAL }],
  [
    "3 global + Sonarr's matching rule, EXCLUDE, PRIORITY",
    {
      SERVER_PATH_REWRITES: GLOBAL,
      SOURCES: {
        sonarr: {
          REWRITES: [{ FROM: "^/tv/(?P<show>[^/]+)/Season (\\d+)/", TO: "/tv/${show}/Season $2/" }],
          EXCLUDE: ["/Extras/"],
          PRIORITY: -2,
        },
      },
    },
  ],
];

function ingestOf(extra: Record<string, unknown>): Ingest {
  const { config } = parseConfigText(JSON.stringify({ ...BASE, ...extra }), TARGET_CONFIGS) as { config: Config };
  let sunk = 0;
  return createIngest({
    mapper: createServerMapper(config),
    sources: createSourceTable(config),
    ignoreList: ["/.grab/"],
    sink: {
      enqueue: async (requests) => {
        sunk += requests.length;
        return { queued: sunk > 0 ? [requests[0]?.folder ?? ""] : [], covered: [] };
      },
    },
  });
}

const ingests = cases.map(([, extra]) => ingestOf(extra));
const samples: number[][] = cases.map(() => []);
for (let round = 0; round < rounds; round++) {
  for (const [i, ingest] of ingests.entries()) {
    const start = process.hrtime.bigint();
    for (let n = 0; n < calls; n++) {
      const path = `/tv/Show ${n % 1000}/Season ${(n % 10) + 1}/Show - S01E${n % 100}.mkv`;
      const outcome = await ingest([{ path, kind: "file" }], "sonarr", "Download");
      if (outcome.result !== "queued") throw new Error(`${cases[i]?.[0]}: ${JSON.stringify(outcome)}`);
    }
    samples[i]?.push(Number(process.hrtime.bigint() - start) / 1000 / calls);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const reference = median(samples[0] ?? []);
console.log(`${calls} calls per round, ${rounds} rounds alternating; Node ${process.version}; ${new Date().toISOString().slice(0, 10)}`);
for (const [i, [label]] of cases.entries()) {
  const m = median(samples[i] ?? []);
  console.log(`${label.padEnd(56)} median ${m.toFixed(2)} µs/call  ratio ${(m / reference).toFixed(3)}`);
}
