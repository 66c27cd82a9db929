import type { IncomingMessage } from "node:http";
import type { HttpError } from "./http-error.js";
import type { Method, Route, RouteAuth, ScanServerDeps } from "./types.js";

/**
 * What is checked before a path's routes are looked at: the key (the pass in
 * the path, HTTP Basic, or none), whether the routes exist in this process,
 * a guard that runs before any credential, and how a refusal is worded.
 */
export interface Gate {
  key: "pass" | "basic" | "none";
  served?: (deps: ScanServerDeps) => boolean;
  guard?: (req: IncomingMessage) => void;
  refusal?: (error: HttpError) => HttpError;
}

export interface Found {
  /** The routes of the path's pattern; undefined when no pattern matches. */
  routes?: readonly Route[];
  /**
   * The pattern's gate; for a path no pattern matches, the gate every route
   * of the nearest area shares, so a caller without the key learns nothing
   * about which routes exist. Undefined when they share none (only `/`).
   */
  gate?: Gate;
  /** The `:name` segments, by name. */
  params: Record<string, string>;
}

export interface Router {
  /** Matches decoded path segments; a literal segment shadows a parameter at the same place. */
  find(segments: readonly string[]): Found;
}

interface Node {
  literals: Map<string, Node>;
  param?: { name: string; node: Node };
  routes: Route[];
  /** The gate of `routes`, when there are any. */
  own?: Gate;
  /** The gate every route at or below this node shares, or "mixed". */
  area?: Gate | "mixed";
}

/** Builds the matcher; throws when two routes of one path disagree on their gate or share a method. */
export function createRouter(routes: readonly Route[]): Router {
  const root = newNode();
  for (const route of routes) insert(root, route);
  summarize(root);
  return { find: (segments) => find(root, segments) };
}

/** The route of `routes` that takes `method`, if any. */
export function routeFor(routes: readonly Route[], method: string): Route | undefined {
  return routes.find((r) => r.methods === "*" || r.methods.includes(method as Method));
}

/** Every method the routes take, in list order (the `Allow` header of a 405). */
export function allowedMethods(routes: readonly Route[]): string[] {
  return routes.flatMap((r) => (r.methods === "*" ? [] : r.methods));
}

/** The key a route's auth kind needs first: "login" is the pass, then the login. */
export function keyOf(auth: RouteAuth): Gate["key"] {
  return auth === "login" ? "pass" : auth;
}

function newNode(): Node {
  return { literals: new Map(), routes: [] };
}

function insert(root: Node, route: Route): void {
  const segments = route.path.split("/").filter(Boolean);
  let node = root;
  for (const segment of segments) {
    if (segment.startsWith(":")) {
      const name = segment.slice(1);
      if (node.param && node.param.name !== name) throw new Error(`${route.path}: :${name} where another route has :${node.param.name}`);
      node.param ??= { name, node: newNode() };
      node = node.param.node;
      continue;
    }
    const next = node.literals.get(segment) ?? newNode();
    node.literals.set(segment, next);
    node = next;
  }
  const gate: Gate = { key: keyOf(route.auth), served: route.served, guard: route.guard, refusal: route.refusal };
  if ((gate.key === "pass") !== segments.includes(":pass"))
    throw new Error(`${route.path}: auth "${route.auth}" and a :pass segment go together`);
  if (node.own && !sameGate(node.own, gate)) throw new Error(`${route.path}: its routes differ in key, guard, refusal or availability`);
  const taken = new Set(allowedMethods(node.routes));
  if (node.routes.some((r) => r.methods === "*") || (route.methods === "*" ? taken.size > 0 : route.methods.some((m) => taken.has(m)))) {
    throw new Error(`${route.path}: two routes take the same method`);
  }
  node.own = gate;
  node.routes.push(route);
}

function summarize(node: Node): Gate | "mixed" | undefined {
  const children = [...node.literals.values(), ...(node.param ? [node.param.node] : [])];
  node.area = children.map(summarize).reduce(mergeGates, node.own);
  return node.area;
}

/** What two areas share: the key, or "mixed"; the availability, the guard and the refusal only when they are the same. */
function mergeGates(a: Gate | "mixed" | undefined, b: Gate | "mixed" | undefined): Gate | "mixed" | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  if (a === "mixed" || b === "mixed" || a.key !== b.key) return "mixed";
  const shared = <T>(x: T, y: T): T | undefined => (x === y ? x : undefined);
  return { key: a.key, served: shared(a.served, b.served), guard: shared(a.guard, b.guard), refusal: shared(a.refusal, b.refusal) };
}

function sameGate(a: Gate, b: Gate): boolean {
  return a.key === b.key && a.served === b.served && a.guard === b.guard && a.refusal === b.refusal;
}

function find(root: Node, segments: readonly string[]): Found {
  const params: Record<string, string> = {};
  let node = root;
  for (const segment of segments) {
    const literal = node.literals.get(segment);
    if (literal) {
      node = literal;
      continue;
    }
    if (node.param === undefined) return { gate: areaGate(node), params };
    params[node.param.name] = segment;
    node = node.param.node;
  }
  if (node.routes.length > 0) return { routes: node.routes, gate: node.own, params };
  return { gate: areaGate(node), params };
}

function areaGate(node: Node): Gate | undefined {
  return node.area === "mixed" ? undefined : node.area;
}
