import path from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { prepareActionStatements } from "../../src/queue/actions.js";
import { prepareConfirmStatements } from "../../src/queue/confirm-store.js";
import {
  allows,
  assertTransition,
  DELIVERY_STATES,
  FILES_STATES,
  MACHINES,
  type Machine,
  SCAN,
  SCAN_STATES,
  type Transition,
} from "../../src/queue/lifecycle.js";
import { prepareFileStatements } from "../../src/queue/scan-files.js";
import { migrateQueue } from "../../src/queue/storage/migrate.js";
import { prepareStatements } from "../../src/queue/statements.js";
import { sqlLiteralsUnder, stateUses } from "./lifecycle-sql.js";

const SRC = path.resolve(import.meta.dirname, "../../src");
const STATES: Record<Machine, readonly string[]> = { scan: SCAN_STATES, delivery: DELIVERY_STATES, files: FILES_STATES };
const transitionsOf = (machine: Machine) => Object.values(MACHINES[machine]) as Array<Transition<string>>;

// The schema's migrations keep the CHECK lists of older versions; the live tables are checked below instead.
const uses = sqlLiteralsUnder(SRC)
  .filter(({ file }) => path.basename(file) !== "schema.ts")
  .flatMap(({ file, sql }) => stateUses(sql, path.relative(SRC, file)));

/** Whether some transition of `machine` moves to `to` from every state of `from` (none: any, or a new row). */
function hasTransition(machine: Machine, to: string, from: string[]): boolean {
  return transitionsOf(machine).some((t) => t.to === to && from.every((f) => (t.from as readonly string[]).includes(f)));
}

function preparedStatements(): Record<string, string> {
  const db = new BetterSqlite3(":memory:");
  migrateQueue(db);
  const sets = {
    statements: prepareStatements(db),
    "scan-files": prepareFileStatements(db),
    "confirm-store": prepareConfirmStatements(db),
    actions: prepareActionStatements(db),
  };
  const sources: Record<string, string> = {};
  for (const [file, statements] of Object.entries(sets))
    for (const [name, statement] of Object.entries(statements)) sources[`${file}.${name}`] = statement.source;
  db.close();
  return sources;
}

describe("the queue's state tables (src/queue/lifecycle.ts)", () => {
  it("finds the SQL it checks: the queue's statements name states", () => {
    expect(uses.filter((u) => u.kind === "set").length).toBeGreaterThan(15);
    expect(uses.some((u) => u.kind === "insert" && u.state === "open")).toBe(true);
    expect(uses.some((u) => u.machine === "files" && u.state === "waiting")).toBe(true);
  });

  it("knows every state an SQL statement under src/ names", () => {
    const unknown = uses.filter((u) => !STATES[u.machine].includes(u.state)).map((u) => `${u.file}: ${u.machine} '${u.state}' in ${u.sql}`);
    expect(unknown).toEqual([]);
  });

  it("has a transition to every state an SQL statement writes, from the states it requires", () => {
    const missing: string[] = [];
    for (const { file, sql } of sqlLiteralsUnder(SRC)) {
      const here = stateUses(sql, file);
      for (const written of here.filter((u) => u.kind === "set" || u.kind === "insert" || (u.kind === "case" && u.machine !== "files"))) {
        const from =
          written.kind === "set" ? here.filter((u) => u.kind === "where" && u.machine === written.machine).map((u) => u.state) : [];
        const fromNothing =
          written.kind !== "set" && transitionsOf(written.machine).some((t) => t.to === written.state && t.from.length === 0);
        if (!fromNothing && !hasTransition(written.machine, written.state, from))
          missing.push(`${path.relative(SRC, file)}: ${written.machine} ${from.join("|") || "·"} -> ${written.state}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("names, for each transition, prepared statements that make that move", () => {
    const sources = preparedStatements();
    const wrong: string[] = [];
    for (const [machine, table] of Object.entries(MACHINES) as Array<[Machine, Record<string, Transition<string>>]>) {
      for (const [event, t] of Object.entries(table)) {
        for (const name of t.by) {
          const sql = sources[name];
          if (sql === undefined) {
            wrong.push(`${machine}.${event}: no statement ${name}`);
            continue;
          }
          const here = stateUses(sql, name).filter((u) => u.machine === machine);
          const written = here.filter((u) => u.kind !== "where").map((u) => u.state);
          const required = here.filter((u) => u.kind === "where").map((u) => u.state);
          const parameter = /SET state = \?/.test(sql);
          if (!parameter && machine !== "files" && t.from.length > 0 && !written.includes(t.to))
            wrong.push(`${machine}.${event}: ${name} does not write ${t.to}`);
          if (t.from.length > 0 && required.length > 0 && !required.every((s) => (t.from as readonly string[]).includes(s)))
            wrong.push(`${machine}.${event}: ${name} moves from ${required.join("|")}, the table says ${t.from.join("|")}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("has the live tables' CHECK constraints allow exactly its states", () => {
    const db = new BetterSqlite3(":memory:");
    migrateQueue(db);
    const checkOf = (table: string, column: string) => {
      const sql = (db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) as { sql: string }).sql;
      const list = new RegExp(`CHECK \\(${column} IN \\(([^)]*)\\)\\)`).exec(sql)?.[1] ?? "";
      return [...list.matchAll(/'([^']*)'/g)].map((m) => m[1]).sort();
    };
    expect(checkOf("scan_queue", "state")).toEqual([...SCAN_STATES].sort());
    expect(checkOf("scan_delivery", "state")).toEqual([...DELIVERY_STATES].sort());
    expect(checkOf("scan_queue", "files_state")).toEqual([...FILES_STATES].sort());
    db.close();
  });

  it("refuses a move the tables do not allow, naming it", () => {
    expect(allows(SCAN.retry, "failed")).toBe(true);
    expect(allows(SCAN.retry, "done")).toBe(false);
    expect(() => assertTransition(SCAN.cancel, "done")).toThrow(/no move from done to cancelled/);
    expect(() => assertTransition(SCAN.cancel, "open")).not.toThrow();
  });
});
