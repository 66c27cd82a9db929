import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

/** Every import between the files of one source tree: file -> files it imports (type-only imports included). */
export interface ImportGraph {
  files: string[];
  imports: Map<string, string[]>;
}

const SOURCE = /\.(ts|js|mjs)$/;

/** Reads the relative imports and re-exports of every .ts/.js file under `root` (paths relative to `root`). */
export function readImportGraph(root: string): ImportGraph {
  const files = listSources(root);
  const known = new Set(files);
  const imports = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(join(root, file), "utf8"), true, true);
    const targets = info.importedFiles
      .map((ref) => ref.fileName)
      .filter((name) => name.startsWith("."))
      .map((name) => resolveSource(known, relative(root, resolve(root, dirname(file), name))))
      .filter((target): target is string => target !== undefined);
    imports.set(file, [...new Set(targets)]);
  }
  return { files, imports };
}

/** The groups of nodes that reach each other (Tarjan), only those with more than one node. */
export function cyclesOf(nodes: readonly string[], edges: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) found.push(group.sort());
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return found;
}

/** The graph between groups of files (`groupOf` names a file's group); edges inside a group are dropped. */
export function groupGraph(graph: ImportGraph, groupOf: (file: string) => string): Map<string, string[]> {
  const edges = new Map<string, Set<string>>();
  for (const [file, targets] of graph.imports) {
    const from = groupOf(file);
    for (const target of targets) {
      const to = groupOf(target);
      if (from === to) continue;
      const set = edges.get(from) ?? new Set<string>();
      set.add(to);
      edges.set(from, set);
    }
  }
  return new Map([...edges].map(([group, set]) => [group, [...set]]));
}

function listSources(root: string, folder = ""): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
    const path = folder ? `${folder}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listSources(root, path));
    else if (SOURCE.test(entry.name)) out.push(path);
  }
  return out.sort();
}

function resolveSource(known: ReadonlySet<string>, path: string): string | undefined {
  const normal = path.split("\\").join("/");
  for (const candidate of [normal, normal.replace(/\.js$/, ".ts"), `${normal}.ts`, `${normal}/index.ts`]) {
    if (known.has(candidate)) return candidate;
  }
  return undefined;
}
