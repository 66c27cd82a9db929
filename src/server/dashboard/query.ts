import {
  HISTORY_STATES,
  type HistoryCursor,
  type HistoryFilter,
  type HistoryState,
  type PendingCursor,
} from "../../queue/views/history.js";
import { HttpError } from "../http-error.js";

/** What the dashboard's address asks for: the history filter and the pages of both lists. */
export interface DashboardQuery {
  filter: HistoryFilter;
  after?: HistoryCursor;
  pendingAfter?: PendingCursor;
  limit: number;
}

export const PAGE_DEFAULT = 50;
const PAGE_MAX = 500;
const TEXT_MAX = 200;

export function parseDashboardQuery(params: URLSearchParams): DashboardQuery {
  const state = params.get("state") || undefined;
  if (state !== undefined && !(HISTORY_STATES as readonly string[]).includes(state)) {
    throw new HttpError(400, `state must be one of ${HISTORY_STATES.join(", ")}`);
  }
  const limit = params.has("limit") ? Number(params.get("limit")) : PAGE_DEFAULT;
  if (!Number.isInteger(limit) || limit < 1 || limit > PAGE_MAX)
    throw new HttpError(400, `limit must be a whole number from 1 to ${PAGE_MAX}`);
  const text = (params.get("q") ?? "").slice(0, TEXT_MAX) || undefined;
  const after = cursor(params.get("after"), 2);
  const pendingAfter = cursor(params.get("pafter"), 3);
  return {
    filter: {
      state: state as HistoryState | undefined,
      source: params.get("source") || undefined,
      target: params.get("target") || undefined,
      text,
    },
    after: after && { finishedAt: after[0] as number, id: after[1] as number },
    pendingAfter: pendingAfter && { priority: pendingAfter[0] as number, dueAt: pendingAfter[1] as number, id: pendingAfter[2] as number },
    limit,
  };
}

/** `1700000000000.42`: whole numbers joined by dots, as the page's "next" links write them. */
function cursor(raw: string | null, parts: number): number[] | undefined {
  if (!raw) return undefined;
  const values = raw.split(".").map(Number);
  if (values.length !== parts || !values.every(Number.isSafeInteger))
    throw new HttpError(400, "the page cursor is not valid; start from the first page");
  return values;
}

export function historyCursorText(c: HistoryCursor): string {
  return `${c.finishedAt}.${c.id}`;
}

export function pendingCursorText(c: PendingCursor): string {
  return `${c.priority}.${c.dueAt}.${c.id}`;
}

/** The query string of the same view with some parameters changed. */
export function withParams(params: URLSearchParams, changes: Record<string, string | undefined>): string {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) next.delete(key);
    else next.set(key, value);
  }
  const text = next.toString();
  return text ? `?${text}` : "?";
}
