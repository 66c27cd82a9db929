import { readTextFile } from "../lib/text-file.js";
import { arrBaseUrl, type ArrApp, type ArrKind } from "../arr/index.js";
import { editJson, valueAt, type JsonChange } from "../config/json-edit.js";
import type { Config } from "../config/types.js";
import { writeFileAtomic } from "../lib/atomic-write.js";
import { messageOf } from "../lib/errors.js";

/** An app `connect --list` looks at: where it answers and its key. */
export interface KnownApp {
  kind: ArrKind;
  url: string;
  apiKey: string;
}

/** The apps `ARR_APPS` remembers, of one kind when `kind` is given. */
export function rememberedApps(config: Pick<Config, "ARR_APPS">, kind?: ArrKind): KnownApp[] {
  return config.ARR_APPS.filter((entry) => kind === undefined || entry.TYPE === kind).map((entry) => ({
    kind: entry.TYPE,
    url: entry.URL,
    apiKey: entry.API_KEY,
  }));
}

/**
 * The changes that make `ARR_APPS` (as the file holds it) remember `apps`:
 * an entry of the same kind at the same address gets the new key, any other
 * app is appended. An app already remembered as it is makes no change.
 */
export function planRememberedApps(written: unknown, apps: readonly ArrApp[]): JsonChange[] {
  const entries = Array.isArray(written) ? [...written] : [];
  const changes: JsonChange[] = [];
  for (const app of apps) {
    const entry = { TYPE: app.kind, URL: app.url, API_KEY: app.apiKey };
    const index = entries.findIndex((e) => isEntryOf(e, app));
    if (index >= 0) changes.push({ path: ["ARR_APPS", index], value: entry });
    else changes.push(entries.length === 0 ? { path: ["ARR_APPS"], value: [entry] } : { path: ["ARR_APPS", -1], value: entry });
    if (index < 0) entries.push(entry);
  }
  return changes;
}

function isEntryOf(entry: unknown, app: ArrApp): boolean {
  if (typeof entry !== "object" || entry === null) return false;
  const { TYPE, URL } = entry as Record<string, unknown>;
  if (TYPE !== app.kind || typeof URL !== "string") return false;
  try {
    return arrBaseUrl(URL) === app.url;
  } catch {
    return false;
  }
}

/**
 * Writes the connected `apps` into the config file's `ARR_APPS` (atomically,
 * mode 0600: the keys are secrets), changing no other byte of it. Returns
 * whether the file changed.
 */
export async function rememberApps(file: string, apps: readonly ArrApp[]): Promise<boolean> {
  if (apps.length === 0) return false;
  const text = await readTextFile(file);
  const after = editJson(text, planRememberedApps(valueAt(text, ["ARR_APPS"]), apps));
  if (after === text) return false;
  await writeFileAtomic(file, after, { mode: 0o600, forceMode: true });
  return true;
}

/**
 * `rememberApps`, told in one line for the command to print (none when
 * nothing changed). A file that cannot be written leaves the connections
 * made: the line says so, and `ok` is false.
 */
export async function rememberConnected(file: string, apps: readonly ArrApp[]): Promise<{ ok: boolean; line?: string }> {
  const urls = apps.map((app) => app.url).join(", ");
  try {
    if (!(await rememberApps(file, apps))) return { ok: true };
    return { ok: true, line: `Remembered ${urls} in ${file} (ARR_APPS) for \`scanarr connect --list\`.` };
  } catch (error) {
    return { ok: false, line: `Connected, but could not remember ${urls} in ${file} (ARR_APPS): ${messageOf(error)}` };
  }
}
