import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { Operation } from "openapi-backend";
import { specChecker } from "./checker.js";
import { descriptionsAvailable, type DescribedServer } from "./descriptions.js";
import { recordViolation } from "./violations.js";

/** How a fake is checked against its server's description. */
export interface SpecWatch {
  server: DescribedServer;
  /** The server's name in messages, e.g. "Emby". */
  label: string;
  /** The request's path as the description writes it (a base path removed); undefined when it lies outside the API. */
  pathOf?(url: URL): string | undefined;
}

const checked = new Set<string>();

/**
 * The operations requests were checked against since the last call, as
 * `server operationId` (e.g. `plex refreshSectionByGet`), sorted; forgotten
 * once read. A test that must reach every call of a client asks for them.
 */
export function takeCheckedOperations(): string[] {
  const operations = [...checked].sort();
  checked.clear();
  return operations;
}

/**
 * Checks one exchange of a fake against the description: the request as it
 * arrives (method and path, query names and types, body, credentials), then
 * the answer when the fake's handler ends it (a status the operation lists,
 * a JSON body valid against its schema). Each departure is recorded as a
 * violation naming the operation, which fails the running test
 * (violations.ts); the fake still answers as it would.
 */
export async function watchExchange(
  watch: SpecWatch,
  request: { req: IncomingMessage; url: URL; body: string },
  res: ServerResponse,
): Promise<void> {
  if (!descriptionsAvailable(watch.server)) return;
  const checker = await specChecker(watch.server);
  const { req, url } = request;
  const method = req.method ?? "GET";
  const path = watch.pathOf ? watch.pathOf(url) : url.pathname;
  const where = `${watch.label} ${method} ${url.pathname}`;
  if (path === undefined) return recordViolation(`${where}: outside the API the description covers`);
  const verdict = checker.checkRequest({ method, path, query: url.searchParams, headers: req.headers, body: request.body });
  if (verdict.operation) checked.add(`${watch.server} ${verdict.operation.operationId ?? "unnamed"}`);
  const name = verdict.operation ? `${where} (${verdict.operation.operationId ?? "unnamed operation"})` : where;
  for (const problem of verdict.problems) recordViolation(`${name}: ${problem}`);
  if (verdict.operation) watchAnswer(res, verdict.operation, (problem) => recordViolation(`${name}: ${problem}`), checker);
}

function watchAnswer(
  res: ServerResponse,
  operation: Operation,
  report: (problem: string) => void,
  checker: { checkResponse(operation: Operation, status: number, contentType: string, body: string): string[] },
): void {
  const chunks: string[] = [];
  let contentType = "";
  const writeHead = res.writeHead.bind(res);
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    const headers = rest.find((arg) => typeof arg === "object" && arg !== null) as OutgoingHttpHeaders | undefined;
    const given = headers && Object.entries(headers).find(([key]) => key.toLowerCase() === "content-type")?.[1];
    if (given !== undefined) contentType = String(given);
    return writeHead(status, ...(rest as []));
  }) as typeof res.writeHead;
  const write = res.write.bind(res);
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    chunks.push(String(chunk));
    return write(chunk as string, ...(rest as []));
  }) as typeof res.write;
  const end = res.end.bind(res);
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (typeof chunk === "string" || Buffer.isBuffer(chunk)) chunks.push(String(chunk));
    const type = contentType || String(res.getHeader("content-type") ?? "");
    try {
      for (const problem of checker.checkResponse(operation, res.statusCode, type, chunks.join(""))) report(problem);
    } catch (error) {
      report(`could not check the answer: ${String(error)}`);
    }
    return end(chunk as string, ...(rest as []));
  }) as typeof res.end;
}
