import type { IncomingMessage, ServerResponse } from "node:http";
import type { TriggerType } from "../../config/types.js";
import { PathError, type PathMapper } from "../../paths/mapper.js";
import { parseATrain } from "../../triggers/a-train.js";
import { parseScanRequest, type TriggerResult } from "../../triggers/index.js";
import { parseQueryPaths } from "../../triggers/query.js";
import type { ScanServerDeps } from "../types.js";
import { BODY_LIMIT_BYTES, parseBody, readBodyInTurn, type FormFields, type ParsedBody } from "../body.js";
import type { TurnShare } from "../turn-share.js";
import { HttpError } from "../http-error.js";
import { ingestTrigger } from "../ingest-trigger.js";
import { sendHtml } from "../respond.js";
import { type AnswerStyle, answerEmpty, answerOutcome } from "../answer.js";
import type { CompatDeps } from "./deps.js";
import { renderManualForm } from "./manual-form.js";

type Deps = ScanServerDeps & { compat: CompatDeps; turns?: TurnShare };

/** `/triggers/manual`: GET serves the form, HEAD answers 200, any other method queues every `dir` (and autopulse's `path`). */
export async function handleManual(req: IncomingMessage, res: ServerResponse, url: URL, deps: Deps): Promise<void> {
  const method = req.method ?? "GET";
  if (method === "HEAD") return answerEmpty(res);
  if (method === "GET" && !url.searchParams.has("path")) return sendHtml(res, 200, renderManualForm());
  let params = url.searchParams;
  let format: ParsedBody["format"] | undefined;
  if (!params.has("dir") && !params.has("path") && method !== "GET") {
    // The form posts its folders as one `dir` field, one per line; a script may send `dir` several times.
    const body = await readOptionalBody(req, deps);
    if (body?.format === "form") {
      format = "form";
      const dir = (body.value as FormFields).dir ?? [];
      params = new URLSearchParams();
      for (const field of typeof dir === "string" ? [dir] : dir) {
        for (const line of field.split(/\r?\n/)) if (line.trim() !== "") params.append("dir", line.trim());
      }
    }
  }
  return queueFromQuery(req, res, "manual", params, deps, format);
}

/** `/triggers/<name>`: an *arr's webhook JSON, or query paths for a manual-typed name. */
export async function handleNamed(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  name: string,
  type: TriggerType,
  deps: Deps,
): Promise<void> {
  const method = req.method ?? "GET";
  if (method === "HEAD") return answerEmpty(res);
  if (type === "manual") return queueFromQuery(req, res, name, url.searchParams, deps);
  if (method !== "POST" && method !== "PUT") {
    res.setHeader("allow", "POST, PUT, HEAD");
    throw new HttpError(405, `/triggers/${name} takes the ${type} webhook by POST (or PUT)`);
  }
  const body = await readOptionalBody(req, deps);
  if (body === undefined) {
    // autopulse falls back to the query when a trigger gets no body.
    if (url.searchParams.has("path") || url.searchParams.has("dir")) return queueFromQuery(req, res, name, url.searchParams, deps);
    throw new HttpError(400, "the request body is empty");
  }
  const result = checkSender(parseScanRequest(body.value), name, type);
  answerOutcome(req, res, deps, await ingestTrigger(result, deps, { sourceName: name }), compatStyle(name));
}

/** `POST /triggers/a-train/<drive>`: `{"created":[…],"deleted":[…]}` folders. */
export async function handleATrain(req: IncomingMessage, res: ServerResponse, drive: string, deps: Deps): Promise<void> {
  if (req.method !== "POST") {
    res.setHeader("allow", "POST");
    throw new HttpError(405, "/triggers/a-train/<drive> takes POST");
  }
  const body = await readOptionalBody(req, deps);
  if (body === undefined) throw new HttpError(400, "the request body is empty");
  const outcome = await ingestTrigger(parseATrain(body.value), deps, { sourceName: `a-train/${drive}` });
  answerOutcome(req, res, deps, outcome, compatStyle(`a-train/${drive}`, { drive }));
}

async function queueFromQuery(
  req: IncomingMessage,
  res: ServerResponse,
  trigger: string,
  params: URLSearchParams,
  deps: Deps,
  format?: ParsedBody["format"],
): Promise<void> {
  const { result, sha256 } = parseQueryPaths(params);
  const named = result.kind === "scan" ? result.paths[0]?.path : undefined;
  let extra: Record<string, unknown> = {};
  // The hash is checked only once the path was mapped and found in a library: a path in no library is
  // refused like any other, and nothing is read.
  const admit =
    sha256 !== undefined && named !== undefined
      ? async () => {
          extra = await checkHash(trigger, named, sha256, deps);
        }
      : undefined;
  const outcome = await ingestTrigger(result, deps, admit ? { admit, sourceName: trigger } : { sourceName: trigger });
  answerOutcome(req, res, deps, outcome, compatStyle(trigger, extra, format));
}

/** autoscan and autopulse answer 200 for a queued request, and name the trigger. */
function compatStyle(trigger: string, extra: Record<string, unknown> = {}, format?: ParsedBody["format"]): AnswerStyle {
  return { queuedStatus: 200, format, fields: { trigger, ...extra } };
}

/** One answer for a missing, unreadable and different file: which of them it is would tell the caller whether a path exists. */
const HASH_REFUSED = "not queued: the file is missing, unreadable or not the one the hash names (scanarr does not say which)";

/** autopulse's `hash`: the answer's `hash` field, or 409 (the digest itself is never sent nor logged). */
async function checkHash(trigger: string, requested: string, sha256: string, deps: Deps): Promise<Record<string, unknown>> {
  const serverPath = toServerPath(deps.compat.mapperOf?.(trigger) ?? deps.mapper, requested);
  const verdict = await deps.compat.hashCheck(serverPath, await deps.compat.libraryRoots(serverPath), sha256);
  if (verdict.status === "refused") {
    deps.logger.warn({ trigger, file: serverPath, detail: verdict.detail }, "scan refused: the file the hash names could not be confirmed");
    throw new HttpError(409, HASH_REFUSED);
  }
  return { hash: verdict.status === "match" ? "match" : `unchecked: ${verdict.reason}` };
}

/** An *arr pointed at another app's name is a wrong URL: refuse it, as autoscan did, and say which. */
function checkSender(result: TriggerResult, name: string, type: TriggerType): TriggerResult {
  if (result.kind === "invalid" || result.source === "unknown" || result.source === type) return result;
  if (result.source === "manual" || result.source === "a-train") {
    return { kind: "invalid", reason: `/triggers/${name} takes ${type} webhooks; send manual scans to /triggers/manual` };
  }
  return { kind: "invalid", reason: `this is a ${result.source} webhook, but /triggers/${name} is configured for ${type}` };
}

async function readOptionalBody(req: IncomingMessage, deps: Deps): Promise<ParsedBody | undefined> {
  const raw = await readBodyInTurn(req, deps.bodyLimitBytes ?? BODY_LIMIT_BYTES, deps.turns);
  if (raw.toString("utf8").trim() === "") return undefined;
  return parseBody(raw, req.headers["content-type"]);
}

function toServerPath(mapper: PathMapper, path: string): string {
  try {
    return mapper.toServerPath(path);
  } catch (error) {
    if (error instanceof PathError) throw new HttpError(400, error.message);
    throw error;
  }
}
