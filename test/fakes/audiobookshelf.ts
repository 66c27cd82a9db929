import type { ServerResponse } from "node:http";
import { createWaiter, sendJson, startLoopback, type Availability, type FakeRequest } from "./loopback.js";

export interface FakeAbsUser {
  username: string;
  password: string;
  /** Audiobookshelf takes watcher updates from admins only. */
  admin: boolean;
}

export interface FakeAbsLibrary {
  id: string;
  name: string;
  mediaType?: "book" | "podcast";
  folders: string[];
}

export interface FakeAudiobookshelfOptions {
  users?: FakeAbsUser[];
  /** An API token (from a user's settings) that works as a Bearer token, for an admin. */
  apiToken?: string;
  libraries?: FakeAbsLibrary[];
}

/** One accepted `POST /api/watcher/update`. */
export interface WatcherUpdate {
  libraryId: string;
  path: string;
  type: string;
}

export interface FakeAudiobookshelf {
  url: string;
  updates: WatcherUpdate[];
  /** Every request that arrived (method, path), answered or not. */
  requests: Array<{ method: string; path: string }>;
  /** Forgets every token handed out by a login (a restart with new secrets): the next call with one gets 401. */
  expireLogins(): void;
  setAvailability(next: Availability): Promise<void>;
  waitForUpdates(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const WATCH_TYPES = new Set(["add", "unlink", "rename"]);

/**
 * Audiobookshelf on 127.0.0.1, for what a scan target uses (round4.md §2):
 * `POST /login` trades `{"username", "password"}` for `{"user": {"token"}}`
 * (401 for a wrong pair, 400 when one is missing); every `/api/` call needs
 * `Authorization: Bearer <token>` (401 otherwise). `GET /api/libraries` lists
 * the libraries with their folders; `POST /api/watcher/update` refuses a user
 * who is not an admin with 403 before it reads the body, and a body without
 * a `libraryId`, `path` and a known `type` with 400 (Audiobookshelf's
 * MiscController). Any other route or method is Express's 404.
 */
export async function startFakeAudiobookshelf(options: FakeAudiobookshelfOptions = {}): Promise<FakeAudiobookshelf> {
  const users = options.users ?? [{ username: "root", password: "hunter2-abs", admin: true }];
  const libraries = options.libraries ?? [{ id: "lib_books", name: "Audiobooks", mediaType: "book", folders: ["/audiobooks"] }];
  const tokens = new Map<string, FakeAbsUser>();
  if (options.apiToken !== undefined) tokens.set(options.apiToken, { username: "api", password: "", admin: true });
  const updates: WatcherUpdate[] = [];
  const requests: FakeAudiobookshelf["requests"] = [];
  const waiter = createWaiter();
  let issued = 0;

  const login = (body: unknown, res: ServerResponse): void => {
    const { username, password } = (body ?? {}) as Record<string, unknown>;
    if (typeof username !== "string" || typeof password !== "string" || username === "" || password === "")
      return sendText(res, 400, "Bad Request");
    const user = users.find((u) => u.username === username && u.password === password);
    if (!user) return sendText(res, 401, "Unauthorized");
    const token = `abs-login-token-${++issued}`;
    tokens.set(token, user);
    sendJson(res, 200, {
      user: { id: `usr_${username}`, username, type: user.admin ? "admin" : "user", token },
      userDefaultLibraryId: libraries[0]?.id,
    });
  };

  const watcherUpdate = (user: FakeAbsUser, body: unknown, res: ServerResponse): void => {
    if (!user.admin) return sendText(res, 403, "Forbidden");
    const { libraryId, path, type } = (body ?? {}) as Record<string, unknown>;
    if (
      typeof libraryId !== "string" ||
      typeof path !== "string" ||
      typeof type !== "string" ||
      !libraryId ||
      !path ||
      !WATCH_TYPES.has(type)
    )
      return sendText(res, 400, "Bad Request");
    updates.push({ libraryId, path, type });
    waiter.notify();
    sendText(res, 200, "OK");
  };

  const handle = ({ req, url, body }: FakeRequest, res: ServerResponse): void => {
    const route = `${req.method} ${url.pathname}`;
    const parsed = readJsonBody(req.headers["content-type"], body);
    if (route === "POST /login") return login(parsed, res);
    if (!url.pathname.startsWith("/api/")) return sendText(res, 404, `Cannot ${route}`);
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const user = bearer === undefined ? undefined : tokens.get(bearer);
    if (!user) return sendText(res, 401, "Unauthorized");
    if (route === "GET /api/libraries") return sendJson(res, 200, { libraries: libraries.map(libraryJson) });
    if (route === "POST /api/watcher/update") return watcherUpdate(user, parsed, res);
    sendText(res, 404, `Cannot ${route}`);
  };

  const server = await startLoopback(handle, ({ req, url }) => requests.push({ method: req.method ?? "GET", path: url.pathname }));
  return {
    url: server.url,
    updates,
    requests,
    expireLogins() {
      for (const token of [...tokens.keys()]) if (token.startsWith("abs-login-token-")) tokens.delete(token);
    },
    setAvailability: (next) => server.setAvailability(next),
    waitForUpdates: (count, timeoutMs) =>
      waiter.waitFor(() => updates.length >= count, `${count} Audiobookshelf watcher updates (saw ${updates.length})`, timeoutMs),
    close: () => server.close(),
  };
}

function libraryJson(library: FakeAbsLibrary, index: number): unknown {
  const folders = library.folders.map((fullPath, i) => ({ id: `fol_${library.id}_${i}`, fullPath, libraryId: library.id, addedAt: 1 }));
  return {
    id: library.id,
    name: library.name,
    folders,
    displayOrder: index + 1,
    icon: "audiobookshelf",
    mediaType: library.mediaType ?? "book",
  };
}

/** Express's json parser reads only an `application/json` body; anything else leaves `req.body` empty. */
function readJsonBody(type: string | undefined, body: string): unknown {
  if (!type?.startsWith("application/json")) return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8" });
  res.end(text);
}
