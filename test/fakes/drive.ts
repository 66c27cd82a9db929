/**
 * A loopback Google Drive v3 that the real @googleapis/drive client talks to
 * (rootUrl = fake.url). It serves /drive/v3/* at its origin root, checks the
 * Bearer token (401), honours `fields`, pages like Google (defaults and caps
 * included), answers injected rate limits and 5xx, and counts calls per
 * endpoint. Mutations (add, rename, move, trash, delete) land in the change
 * log of the drive that holds the item, as current-state entries. Every
 * exchange is checked against Drive v3's description (spec/drive-description.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { checkThen } from "./loopback.js";
import type { SpecWatch } from "./spec/exchange.js";

/** How a fake serving /drive/v3/* is checked: against the description read from @googleapis/drive. */
export const DRIVE_SPEC: SpecWatch = { server: "drive", label: "Google Drive" };

export const FOLDER = "application/vnd.google-apps.folder";
export type Endpoint = "changes.getStartPageToken" | "changes.list" | "files.list" | "files.get" | "drives.list";

interface Item {
  id: string;
  name: string;
  mimeType: string;
  parentId: string | undefined;
  explicitlyTrashed: boolean;
  size: string | undefined;
}
interface Entry {
  seq: number;
  key: string;
}
interface Failure {
  status: number;
  reason: string | undefined;
  endpoint: Endpoint | undefined;
  times: number;
}
type Fields = Map<string, Fields | true>;
type Json = Record<string, unknown>;

const ROOT_ID = "0AMyDriveRoot";
const MIME_BY_EXT: Record<string, string> = {
  mkv: "video/x-matroska",
  mp4: "video/mp4",
  avi: "video/x-msvideo",
  sub: "video/MP2G",
  txt: "text/plain",
  srt: "application/x-subrip",
  nfo: "text/xml",
  jpg: "image/jpeg",
};

export class FakeDrive {
  readonly calls: Record<Endpoint, number> = {
    "changes.getStartPageToken": 0,
    "changes.list": 0,
    "files.list": 0,
    "files.get": 0,
    "drives.list": 0,
  };
  /** Every request as received: endpoint and query parameters. */
  readonly requests: { endpoint: Endpoint; query: Record<string, string> }[] = [];
  readonly accessTokens = new Set(["fake-access-token"]);
  url = "";
  private readonly items = new Map<string, Item>([
    [ROOT_ID, { id: ROOT_ID, name: "My Drive", mimeType: FOLDER, parentId: undefined, explicitlyTrashed: false, size: undefined }],
  ]);
  private readonly drives = new Map<string, string>();
  private readonly logs = new Map<string, { entries: Entry[]; latest: Map<string, number> }>([
    ["user", { entries: [], latest: new Map() }],
  ]);
  private readonly failures: Failure[] = [];
  private seq = 1;
  private nextId = 1;
  private recording = true;
  private server = createServer((req, res) => {
    // Drive's read calls carry no body.
    req.resume();
    const url = new URL(req.url ?? "/", "http://fake");
    void checkThen(DRIVE_SPEC, { req, url, body: "" }, res, () => this.handle(req, res, url));
  });

  readonly rootId = ROOT_ID;

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/`;
    return this;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  // ---- what tests do to the drive --------------------------------------------------------------

  /** Builds existing content: nothing done inside `build` shows in any change log. */
  seed(build: () => void): void {
    this.recording = false;
    try {
      build();
    } finally {
      this.recording = true;
    }
  }

  /** A shared drive; its id as Google makes them unless the test names one. */
  addDrive(name: string, id = `0ASharedDrive${this.nextId++}`): string {
    this.drives.set(id, name);
    this.logs.set(id, { entries: [], latest: new Map() });
    this.record("user", `drive:${id}`);
    return id;
  }

  renameDrive(id: string, name: string): void {
    this.drives.set(id, name);
    this.record("user", `drive:${id}`);
    this.record(id, `drive:${id}`);
  }

  addFolder(name: string, parentId: string = ROOT_ID): string {
    return this.add(name, FOLDER, parentId, undefined);
  }

  addFile(name: string, parentId: string, mimeType?: string): string {
    const ext = name.slice(name.lastIndexOf(".") + 1).toLowerCase();
    return this.add(name, mimeType ?? MIME_BY_EXT[ext] ?? "application/octet-stream", parentId, "1048576");
  }

  /** Adds `a/b/c` under `parentId` (creating what is missing) and returns the last folder's id. */
  addFolderPath(path: string, parentId: string = ROOT_ID): string {
    let current = parentId;
    for (const name of path.split("/").filter(Boolean)) {
      const existing = [...this.items.values()].find((i) => i.parentId === current && i.name === name && i.mimeType === FOLDER);
      current = existing?.id ?? this.addFolder(name, current);
    }
    return current;
  }

  rename(id: string, name: string): void {
    this.item(id).name = name;
    this.touch(id);
  }

  move(id: string, parentId: string): void {
    const before = this.logOf(id);
    this.item(id).parentId = parentId;
    if (before !== this.logOf(id)) this.record(before, id);
    this.touch(id);
  }

  trash(id: string, trashed = true): void {
    this.item(id).explicitlyTrashed = trashed;
    this.touch(id);
  }

  /** Deletes forever: the log reports the id as removed, files.get answers 404. */
  remove(id: string): void {
    const log = this.logOf(id);
    this.items.delete(id);
    this.record(log, id);
  }

  /** The next `times` calls (of `endpoint`, or any) answer `status` with Google's error body for `reason`. */
  failNext(status: number, options: { reason?: string; endpoint?: Endpoint; times?: number } = {}): void {
    this.failures.push({ status, reason: options.reason, endpoint: options.endpoint, times: options.times ?? 1 });
  }

  resetCalls(): void {
    for (const key of Object.keys(this.calls) as Endpoint[]) this.calls[key] = 0;
    this.requests.length = 0;
  }

  get totalCalls(): number {
    return Object.values(this.calls).reduce((a, b) => a + b, 0);
  }

  // ---- model --------------------------------------------------------------------------------

  private add(name: string, mimeType: string, parentId: string, size: string | undefined): string {
    if (parentId !== ROOT_ID && !this.drives.has(parentId) && !this.items.has(parentId))
      throw new Error(`fake drive: no parent ${parentId}`);
    const id = `${mimeType === FOLDER ? "fo" : "fi"}${this.nextId++}`;
    this.items.set(id, { id, name, mimeType, parentId, explicitlyTrashed: false, size: mimeType === FOLDER ? undefined : size });
    this.touch(id);
    return id;
  }

  private item(id: string): Item {
    const item = this.items.get(id);
    if (!item) throw new Error(`fake drive: no item ${id}`);
    return item;
  }

  private touch(id: string): void {
    this.record(this.logOf(id), id);
  }

  private record(log: string, key: string): void {
    if (!this.recording) return;
    const target = this.logs.get(log);
    if (!target) return;
    const seq = this.seq++;
    target.entries.push({ seq, key });
    target.latest.set(key, seq);
  }

  /** The shared drive that holds an item (its top ancestor), or undefined for My Drive. */
  private driveOf(id: string): string | undefined {
    let current: string | undefined = id;
    for (let depth = 0; current !== undefined && depth < 1000; depth++) {
      if (this.drives.has(current)) return current;
      current = this.items.get(current)?.parentId;
    }
    return undefined;
  }

  private logOf(id: string): string {
    return this.driveOf(id) ?? "user";
  }

  private isTrashed(item: Item): boolean {
    for (let current: Item | undefined = item; current; current = current.parentId ? this.items.get(current.parentId) : undefined) {
      if (current.explicitlyTrashed) return true;
    }
    return false;
  }

  private resource(item: Item): Json {
    const driveId = this.driveOf(item.id);
    return {
      kind: "drive#file",
      id: item.id,
      name: item.name,
      mimeType: item.mimeType,
      ...(item.parentId ? { parents: [item.parentId] } : {}),
      trashed: this.isTrashed(item),
      explicitlyTrashed: item.explicitlyTrashed,
      ...(driveId ? { driveId } : {}),
      ...(item.size ? { size: item.size, md5Checksum: `md5-${item.id}` } : {}),
    };
  }

  // ---- HTTP -----------------------------------------------------------------------------------

  private handle(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const query = Object.fromEntries(url.searchParams);
    const endpoint = routeOf(req.method ?? "GET", url.pathname);
    if (!endpoint) return send(res, 404, googleError(404, "notFound", `No route ${url.pathname}`));
    this.calls[endpoint]++;
    this.requests.push({ endpoint, query });
    const auth = req.headers.authorization ?? "";
    if (!auth.startsWith("Bearer ") || !this.accessTokens.has(auth.slice(7))) {
      res.setHeader("WWW-Authenticate", 'Bearer realm="https://accounts.google.com/"');
      return send(res, 401, googleError(401, "authError", "Request had invalid authentication credentials.", "global"));
    }
    const failure = this.failures.find((f) => f.endpoint === undefined || f.endpoint === endpoint);
    if (failure) {
      if (--failure.times <= 0) this.failures.splice(this.failures.indexOf(failure), 1);
      return send(res, failure.status, failureBody(failure));
    }
    try {
      const [status, body, defaults] = this.answer(endpoint, query, decodeURIComponent(url.pathname.split("/")[4] ?? ""));
      send(res, status, status === 200 ? select(body, parseFields(query.fields ?? defaults)) : body);
    } catch (error) {
      send(res, 500, googleError(500, "backendError", String(error)));
    }
  }

  private answer(endpoint: Endpoint, q: Record<string, string>, fileId: string): [number, Json, string] {
    const allDrives = q.supportsAllDrives === "true" && q.includeItemsFromAllDrives === "true";
    if (endpoint === "changes.getStartPageToken") {
      if (q.driveId && !this.drives.has(q.driveId)) return [404, googleError(404, "notFound", `Shared drive not found: ${q.driveId}`), ""];
      return [200, { kind: "drive#startPageToken", startPageToken: String(this.seq) }, "kind,startPageToken"];
    }
    if (endpoint === "changes.list") {
      if (!q.pageToken || !/^\d+$/.test(q.pageToken)) return [400, googleError(400, "invalid", "Invalid Value", "global"), ""];
      if (q.driveId && !this.drives.has(q.driveId)) return [404, googleError(404, "notFound", `Shared drive not found: ${q.driveId}`), ""];
      if (q.driveId && !allDrives)
        return [
          403,
          googleError(403, "teamDrivesParameterNotSupported", "driveId needs supportsAllDrives and includeItemsFromAllDrives"),
          "",
        ];
      return [
        200,
        this.changePage(q),
        "kind,nextPageToken,newStartPageToken,changes(kind,changeType,time,removed,fileId,driveId,file(kind,id,name,mimeType),drive(kind,id,name))",
      ];
    }
    if (endpoint === "files.list") return this.fileList(q, allDrives);
    if (endpoint === "files.get") {
      const item = this.items.get(fileId === "root" ? ROOT_ID : fileId);
      if (!item || (this.driveOf(item.id) && q.supportsAllDrives !== "true"))
        return [404, googleError(404, "notFound", `File not found: ${fileId}.`), ""];
      return [200, this.resource(item), "kind,id,name,mimeType"];
    }
    const size = Math.min(Number(q.pageSize ?? 10), 100);
    const start = Number(q.pageToken ?? 0);
    const all = [...this.drives].map(([id, name]) => ({ kind: "drive#drive", id, name }));
    const next = start + size < all.length ? { nextPageToken: String(start + size) } : {};
    return [200, { kind: "drive#driveList", drives: all.slice(start, start + size), ...next }, "kind,nextPageToken,drives(kind,id,name)"];
  }

  private changePage(q: Record<string, string>): Json {
    const logKey = q.driveId ?? "user";
    const log = this.logs.get(logKey);
    const size = Math.min(Number(q.pageSize ?? 100), 1000);
    const from = Number(q.pageToken);
    const changes: Json[] = [];
    const entries = log?.entries ?? [];
    let i = lowerBound(entries, from);
    for (; i < entries.length && changes.length < size; i++) {
      const entry = entries[i];
      if (!entry || log?.latest.get(entry.key) !== entry.seq) continue;
      const change = this.changeOf(entry, logKey);
      if (change.removed === true && q.includeRemoved === "false") continue;
      changes.push(change);
    }
    while (i < entries.length && log?.latest.get(entries[i]?.key ?? "") !== entries[i]?.seq) i++;
    const live = entries[i];
    const tokens = live ? { nextPageToken: String(live.seq) } : { newStartPageToken: String(this.seq) };
    return { kind: "drive#changeList", changes, ...tokens };
  }

  private changeOf(entry: Entry, logKey: string): Json {
    const base = { kind: "drive#change", time: new Date().toISOString() };
    if (entry.key.startsWith("drive:")) {
      const id = entry.key.slice(6);
      const name = this.drives.get(id);
      return {
        ...base,
        changeType: "drive",
        driveId: id,
        removed: name === undefined,
        ...(name ? { drive: { kind: "drive#drive", id, name } } : {}),
      };
    }
    const item = this.items.get(entry.key);
    const gone = !item || this.logOf(item.id) !== logKey;
    return { ...base, changeType: "file", fileId: entry.key, removed: gone, ...(gone || !item ? {} : { file: this.resource(item) }) };
  }

  private fileList(q: Record<string, string>, allDrives: boolean): [number, Json, string] {
    const corpora = q.corpora ?? "user";
    if (corpora === "drive" && (!q.driveId || !allDrives))
      return [
        403,
        googleError(403, "teamDriveIdRequiresCorpora", "corpora=drive needs driveId, supportsAllDrives and includeItemsFromAllDrives"),
        "",
      ];
    const test = this.parseQuery(q.q ?? "");
    if (!test) return [400, googleError(400, "invalid", "Invalid Value", "global"), ""];
    const size = Math.min(Number(q.pageSize ?? 100), 1000);
    const corpus = corpora === "drive" ? q.driveId : undefined;
    // The token is the position to resume from, so a page costs the fake what it returns, not the drive's size.
    const items = [...this.items.values()];
    const files: Json[] = [];
    let i = Number(q.pageToken ?? 0);
    for (; i < items.length && files.length < size; i++) {
      const item = items[i];
      if (!item || item.id === ROOT_ID || !test(item) || this.driveOf(item.id) !== corpus) continue;
      files.push(this.resource(item));
    }
    const more = items.slice(i).some((item) => item.id !== ROOT_ID && test(item) && this.driveOf(item.id) === corpus);
    return [
      200,
      { kind: "drive#fileList", incompleteSearch: false, files, ...(more ? { nextPageToken: String(i) } : {}) },
      "kind,nextPageToken,incompleteSearch,files(kind,id,name,mimeType)",
    ];
  }

  /** The subset of Drive's query language the monitor uses: `and` of mimeType, trashed and parents terms. */
  private parseQuery(q: string): ((item: Item) => boolean) | undefined {
    const terms = q.trim() === "" ? [] : q.split(/\s+and\s+/i);
    const tests: ((item: Item) => boolean)[] = [];
    for (const term of terms) {
      let m: RegExpMatchArray | null;
      if ((m = term.match(/^mimeType\s*(!?=)\s*'([^']*)'$/))) {
        const [, op, v] = m;
        tests.push((f) => (f.mimeType === v) === (op === "="));
      } else if ((m = term.match(/^trashed\s*=\s*(true|false)$/))) {
        const v = m[1] === "true";
        tests.push((f) => this.isTrashed(f) === v);
      } else if ((m = term.match(/^'([^']+)'\s+in\s+parents$/))) {
        const v = m[1];
        tests.push((f) => f.parentId === v);
      } else return undefined;
    }
    return (item) => tests.every((t) => t(item));
  }
}

export async function startFakeDrive(): Promise<FakeDrive> {
  return new FakeDrive().listen();
}

/** A drive holding these shared drives, answering to `accessToken` too (the remote wizard's drives.list). */
export async function startFakeSharedDrives(drives: Array<{ id: string; name: string }>, accessToken: string): Promise<FakeDrive> {
  const fake = await startFakeDrive();
  fake.seed(() => {
    for (const drive of drives) fake.addDrive(drive.name, drive.id);
  });
  fake.accessTokens.add(accessToken);
  return fake;
}

function routeOf(method: string, path: string): Endpoint | undefined {
  if (method !== "GET") return undefined;
  if (path === "/drive/v3/changes/startPageToken") return "changes.getStartPageToken";
  if (path === "/drive/v3/changes") return "changes.list";
  if (path === "/drive/v3/files") return "files.list";
  if (/^\/drive\/v3\/files\/[^/]+$/.test(path)) return "files.get";
  if (path === "/drive/v3/drives") return "drives.list";
  return undefined;
}

function lowerBound(entries: Entry[], seq: number): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((entries[mid]?.seq ?? Infinity) < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Parses a partial-response selector such as `nextPageToken,changes(fileId,file(id,name))`. */
export function parseFields(spec: string): Fields {
  let pos = 0;
  function list(): Fields {
    const out: Fields = new Map();
    while (pos < spec.length && spec[pos] !== ")") {
      const name = /^[A-Za-z0-9_*]+/.exec(spec.slice(pos))?.[0] ?? "";
      if (!name) throw new Error(`bad fields at ${pos}: ${spec}`);
      pos += name.length;
      if (spec[pos] === "(" || spec[pos] === "/") {
        const nested = spec[pos] === "(";
        pos++;
        const sub = nested ? list() : list1();
        if (nested) pos++;
        const known = out.get(name);
        out.set(name, known instanceof Map ? new Map([...known, ...sub]) : sub);
      } else out.set(name, true);
      if (spec[pos] === ",") pos++;
    }
    return out;
  }
  function list1(): Fields {
    const name = /^[A-Za-z0-9_*]+/.exec(spec.slice(pos))?.[0] ?? "";
    pos += name.length;
    if (spec[pos] === "/") {
      pos++;
      return new Map([[name, list1()]]);
    }
    return new Map([[name, true]]);
  }
  return list();
}

function select(value: unknown, fields: Fields): unknown {
  if (Array.isArray(value)) return value.map((v) => select(v, fields));
  if (typeof value !== "object" || value === null || fields.has("*")) return value;
  const out: Json = {};
  for (const [key, sub] of fields) {
    const v = (value as Json)[key];
    if (v !== undefined) out[key] = sub === true ? v : select(v, sub);
  }
  return out;
}

function googleError(code: number, reason: string, message: string, domain = "global"): Json {
  return { error: { code, message, errors: [{ domain, reason, message }] } };
}

function failureBody(f: Failure): Json {
  const reason = f.reason ?? (f.status === 429 ? "rateLimitExceeded" : f.status >= 500 ? "backendError" : "forbidden");
  const domain = reason.endsWith("RateLimitExceeded") || reason === "rateLimitExceeded" ? "usageLimits" : "global";
  return googleError(f.status, reason, reason === "userRateLimitExceeded" ? "User Rate Limit Exceeded" : reason, domain);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json; charset=UTF-8" });
  res.end(JSON.stringify(body));
}
