import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Machine } from "../../src/queue/lifecycle.js";

/** A state named by an SQL statement: which machine, which literal, and whether the statement writes it. */
export interface StateUse {
  machine: Machine;
  state: string;
  kind: "set" | "where" | "insert" | "case";
  sql: string;
  file: string;
}

const SQL_KEYWORD = /\b(SELECT|UPDATE|INSERT|DELETE|CREATE)\b/;

/** Every string literal in the TypeScript files under `dir` that reads as SQL. */
export function sqlLiteralsUnder(dir: string): Array<{ file: string; sql: string }> {
  const found: Array<{ file: string; sql: string }> = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".ts")) continue;
    const file = path.join(entry.parentPath, entry.name);
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(/`[^`]*`|"(?:[^"\\\n]|\\.)*"/g)) {
      const sql = match[0].slice(1, -1);
      if (SQL_KEYWORD.test(sql)) found.push({ file, sql });
    }
  }
  return found;
}

/**
 * The machine a bare `state` at `at` belongs to: the table named last before
 * it (updated, inserted into, read), leaving out subqueries closed by then.
 */
function tableMachine(sql: string, at: number): Machine | undefined {
  let before = sql.slice(0, at);
  for (let last = ""; last !== before; ) [last, before] = [before, before.replace(/\([^()]*\)/g, "")];
  const tables = [...before.matchAll(/\b(?:UPDATE|INTO|FROM|ON)\s+(scan_queue|scan_delivery|scan_count)\b/g)];
  const table = tables.at(-1)?.[1];
  return table === "scan_delivery" ? "delivery" : table ? "scan" : undefined;
}

function machineOf(qualifier: string | undefined, column: string, sql: string, at: number): Machine | undefined {
  if (column === "files_state") return "files";
  if (qualifier === "d") return "delivery";
  if (qualifier === "s" || qualifier === "OLD" || qualifier === "NEW") return "scan";
  return tableMachine(sql, at);
}

/** Where the statement's own WHERE starts: the first one outside parentheses (subqueries have their own). */
function topLevelWhere(sql: string): number {
  let depth = 0;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (depth === 0 && /^WHERE\b/.test(sql.slice(i, i + 6)) && /\W/.test(sql[i - 1] ?? " ")) return i;
  }
  return -1;
}

const literals = (list: string) => [...list.matchAll(/'([^']*)'/g)].map((m) => m[1] as string);

/** The states `sql` names, each with its machine and how it is used. */
export function stateUses(sql: string, file: string): StateUse[] {
  const uses: StateUse[] = [];
  const flat = sql;
  const where = topLevelWhere(flat);
  const isUpdate = /^\s*UPDATE\b/.test(flat);
  const compare = /\b(?:(\w+)\.)?(files_state|state)\s*(?:=\s*'([^']*)'|(?:NOT\s+)?IN\s*\(([^)]*)\))/g;
  for (const m of flat.matchAll(compare)) {
    const machine = machineOf(m[1], m[2] as string, sql, m.index ?? 0);
    if (!machine) continue;
    const states = m[3] !== undefined ? [m[3]] : literals(m[4] ?? "");
    const kind = isUpdate && m[3] !== undefined && (where === -1 || (m.index ?? 0) < where) ? "set" : "where";
    for (const state of states) uses.push({ machine, state, kind, sql, file });
  }
  for (const m of flat.matchAll(/\b(?:WHEN|THEN|ELSE)\s+'([^']*)'/g)) {
    const machine = /CASE\s+files_state\s+WHEN\s+'[^']*'\s+THEN\s+'[^']*'\s+ELSE\s+files_state/.test(flat)
      ? "files"
      : /^\s*INSERT\s+(?:OR\s+\w+\s+)?INTO\s+scan_delivery/.test(flat)
        ? "delivery"
        : tableMachine(sql, m.index ?? 0);
    if (machine) uses.push({ machine, state: m[1] as string, kind: "case", sql, file });
  }
  const insert = /INSERT\s+(?:OR\s+\w+\s+)?INTO\s+(scan_queue|scan_delivery)\s*\(([^)]*)\)\s*VALUES\s*\(([^)]*)\)/.exec(flat);
  if (insert) {
    const columns = (insert[2] as string).split(",").map((c) => c.trim());
    const values = (insert[3] as string).split(",").map((v) => v.trim());
    const at = columns.indexOf("state");
    const value = values[at];
    if (at >= 0 && value?.startsWith("'")) {
      uses.push({ machine: insert[1] === "scan_delivery" ? "delivery" : "scan", state: value.slice(1, -1), kind: "insert", sql, file });
    }
  }
  return uses;
}
