import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ROUTES } from "../../src/server/route-list.js";
import type { Route } from "../../src/server/types.js";

/** The table under "## HTTP routes" in docs/running.md, header first: the lines from its header to the first non-table line. */
function routesTable(): string[][] {
  const text = readFileSync(new URL("../../docs/running.md", import.meta.url), "utf8");
  const section = text.slice(text.indexOf("\n## HTTP routes\n"));
  const lines = section.split("\n");
  const header = lines.findIndex((line) => line.startsWith("| Method | Path | Auth |"));
  expect(header, "the routes table's header").toBeGreaterThan(0);
  expect(lines[header + 1]).toMatch(/^\|(---\|)+$/);
  const rows = [lines[header] ?? ""];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(line);
  }
  return rows.map((line) => line.split("|").map((cell) => cell.trim().replaceAll("`", "")));
}

function documentedRoutes(): string[][] {
  return routesTable()
    .slice(1)
    .map((cells) => cells.slice(1, 4));
}

/** A route as the table writes it: `GET, HEAD` or `any`, `:name` as `<name>`, the auth kind. */
function asRow(route: Route): string[] {
  const methods = route.methods === "*" ? "any" : route.methods.join(", ");
  return [methods, route.path.replace(/:(\w+)/g, "<$1>"), route.auth];
}

describe("docs/running.md's routes table", () => {
  it("lists every route of the route list, and nothing else, with its methods and auth", () => {
    const documented = documentedRoutes().map((cells) => cells.join(" | "));
    const listed = ROUTES.map((route) => asRow(route).join(" | "));
    expect(new Set(documented).size, "a duplicate row").toBe(documented.length);
    expect([...documented].sort()).toEqual([...listed].sort());
  });

  it("has as many cells in every row as in its header, so GitHub renders it as one table", () => {
    const [header, ...rows] = routesTable();
    for (const row of rows) expect(row.length, row.join("|")).toBe(header?.length);
  });
});
