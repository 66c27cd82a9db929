import { describe, expect, it } from "vitest";
import type { Library } from "../../src/domain.js";
import { createPathMapper } from "../../src/paths/index.js";
import { createIngest } from "../../src/ingest/pipeline.js";
import { ingestTrigger } from "../../src/server/ingest-trigger.js";
import { parseATrain } from "../../src/triggers/a-train.js";
import { catalogOfLibraries } from "../helpers/catalog.js";
import { createQueue, tempDatabase } from "../queue/helpers.js";

// Issue #20, item 9: an A-Train request must cost the same per folder at any
// size. Counted, not timed: the queue's statements and the mapper's calls for
// a request of n folders and of 4n must grow 4 times, not 16.

const LIBRARIES: Library[] = [{ id: "2", title: "TV", type: "show", locations: ["/data/TV"] }];

/** A-Train's body: `created` season folders, and as many `deleted` again as half of them, a folder in both lists once. */
function aTrainBody(created: number) {
  const folder = (i: number) => `/tv/Show ${Math.floor(i / 10)}/Season ${i % 10}`;
  const deleted = created / 2;
  return {
    created: Array.from({ length: created }, (_, i) => folder(i)),
    deleted: [
      ...Array.from({ length: deleted / 2 }, (_, i) => folder(i)),
      ...Array.from({ length: deleted / 2 }, (_, i) => folder(created + i)),
    ],
  };
}

/** Runs one A-Train request through ingest into a real queue; counts the SQL statements run and the paths mapped. */
async function countWork(created: number) {
  const { db } = tempDatabase();
  let statements = 0;
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    const statement = prepare(sql);
    for (const method of ["run", "get", "all"] as const) {
      const call = statement[method].bind(statement) as (...args: unknown[]) => unknown;
      (statement as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        statements++;
        return call(...args);
      };
    }
    return statement;
  }) as typeof db.prepare;
  const { queue } = createQueue({ db, delayMs: 60_000 });
  const mapper = createPathMapper({ "/data/TV/": ["/tv/"] });
  let mapped = 0;
  const counting = {
    ...mapper,
    explain: (path: string) => {
      mapped++;
      return mapper.explain(path);
    },
  };
  const libraries = catalogOfLibraries(LIBRARIES);
  const before = statements;
  const sink = { enqueue: async (requests: Parameters<typeof queue.enqueue>[0]) => queue.enqueue(requests) };
  const ingest = createIngest({ ignoreList: [], mapper: counting, sink, catalog: libraries });
  const outcome = await ingestTrigger(parseATrain(aTrainBody(created)), { allowManual: true, ingest });
  return { outcome, statements: statements - before, mapped, pending: queue.countPending() };
}

describe("an A-Train request's cost", () => {
  it("grows linearly with its folders: 4 times the folders, 4 times the statements and mapped paths", async () => {
    const small = await countWork(1_000);
    const large = await countWork(4_000);
    expect(small.pending).toBe(1_250);
    expect(large.pending).toBe(5_000);
    expect(large.outcome).toMatchObject({ result: "queued" });
    // Each distinct folder is mapped once.
    expect([small.mapped, large.mapped]).toEqual([1_250, 5_000]);
    // A fixed cost per request is allowed; a cost per pair of folders (16 times) is not.
    expect(large.statements).toBeLessThanOrEqual(4 * small.statements * 1.05);
    expect(large.statements).toBeGreaterThanOrEqual(4 * small.statements * 0.95);
  });
});
