import { isUtf8 } from "node:buffer";
import type { IncomingMessage } from "node:http";
import { HttpError } from "./http-error.js";
import { LIMITS } from "./limits.js";
import { isBlank } from "../lib/blank.js";
import { messageOf } from "../lib/errors.js";
import type { TurnShare } from "./turn-share.js";

/** Largest request body accepted (413 above it). */
export const BODY_LIMIT_BYTES = LIMITS.bodyBytes;

export interface ParsedBody {
  format: "json" | "form";
  value: unknown;
}

/** The client closed the connection before its request was read: nobody is left to answer. */
export class ClientGoneError extends Error {
  override name = "ClientGoneError";
}

/**
 * A webhook's body, read whole (readBody), then its turn taken (turn-share.ts):
 * while clients keep connecting, only a few requests go on to their work per
 * turn of the event loop. Every way a scan request comes in reads through it.
 */
export async function readBodyInTurn(req: IncomingMessage, limit: number, turns: TurnShare | undefined): Promise<Buffer> {
  const raw = await readBody(req, limit);
  const turn = turns?.enter();
  if (turn) await turn;
  return raw;
}

/**
 * Reads the whole body, answering 413 as soon as it passes `limit` bytes,
 * whether the length was declared or the body is chunked. Listens to the
 * stream's events rather than iterating it: leaving a `for await` early
 * destroys the request, and with it the socket the 413 must go out on.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (error?: Error) => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else {
        // Stop reading; the 413 goes out with Connection: close, which ends the upload.
        req.pause();
        finish(tooLarge(limit));
      }
    };
    const onEnd = () => finish();
    const onError = (error: Error) => finish(new ClientGoneError(error.message));
    const onClose = () => finish(new ClientGoneError("the client closed the connection before sending the whole body"));
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("close", onClose);
  });
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, `request body is larger than ${limit} bytes`);
}

/** The body as text; bytes that are not UTF-8 are refused rather than replaced with U+FFFD. */
export function decodeUtf8(raw: Uint8Array, what = "the request body"): string {
  // isUtf8 is a vectorised check; a fatal TextDecoder costs several times more per request.
  if (!isUtf8(raw)) throw new HttpError(400, `${what} is not valid UTF-8`);
  const text = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString("utf8");
  // A leading byte-order mark is not part of the text (as a TextDecoder drops it).
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * JSON for any JSON media type (`application/json; charset=utf-8`,
 * `application/vnd.x+json`, `text/json`), form fields for
 * `application/x-www-form-urlencoded`; without a Content-Type the body's
 * first character decides.
 */
export function parseBody(raw: Buffer, contentType: string | undefined): ParsedBody {
  const text = decodeUtf8(raw);
  if (isBlank(text)) throw new HttpError(400, "the request body is empty");
  const type = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  const isJson = type === "application/json" || type === "text/json" || type.endsWith("+json") || (type === "" && /^\s*[[{]/.test(text));
  if (isJson) {
    try {
      return { format: "json", value: JSON.parse(text) as unknown };
    } catch (error) {
      throw new HttpError(400, `the body is not valid JSON: ${messageOf(error)}`);
    }
  }
  if (type === "application/x-www-form-urlencoded" || type === "" || type === "text/plain") {
    return { format: "form", value: parseFormFields(text) };
  }
  throw new HttpError(415, `unsupported Content-Type ${JSON.stringify(type)}; send JSON or form fields`);
}

/** A form's fields: a key sent once has its value, a key sent more than once all of them, in order. */
export type FormFields = Record<string, string | string[]>;

/**
 * `a=1&b=2` as URLSearchParams reads it, except that a percent-escape that
 * decodes to invalid UTF-8 (`%FF`) is refused instead of becoming U+FFFD,
 * and a repeated key keeps every value (`dir=a&dir=b` is `{dir: ["a", "b"]}`)
 * where reading it as one string would keep only the last.
 */
export function parseFormFields(text: string): FormFields {
  const values = new Map<string, string[]>();
  for (const pair of text.split("&")) {
    if (pair === "") continue;
    const at = pair.indexOf("=");
    const key = decodeFormComponent(at === -1 ? pair : pair.slice(0, at));
    const value = decodeFormComponent(at === -1 ? "" : pair.slice(at + 1));
    const list = values.get(key);
    if (list) list.push(value);
    else values.set(key, [value]);
  }
  // fromEntries defines own properties, so a key named "__proto__" stays a field.
  return Object.fromEntries([...values].map(([key, list]) => [key, list.length === 1 ? (list[0] as string) : list]));
}

function decodeFormComponent(encoded: string): string {
  const plus = encoded.replaceAll("+", " ");
  if (!plus.includes("%")) return plus;
  const bytes = Buffer.from(plus, "utf8");
  const out = Buffer.alloc(bytes.length);
  let length = 0;
  for (let i = 0; i < bytes.length; i++) {
    const escaped = bytes[i] === 0x25 && i + 2 < bytes.length ? hexByte(bytes[i + 1] as number, bytes[i + 2] as number) : undefined;
    // A "%" not followed by two hex digits stays as it is, as URLSearchParams leaves it.
    if (escaped === undefined) out[length++] = bytes[i] as number;
    else {
      out[length++] = escaped;
      i += 2;
    }
  }
  return decodeUtf8(out.subarray(0, length), "a form field");
}

function hexByte(high: number, low: number): number | undefined {
  const digits = String.fromCharCode(high, low);
  return /^[0-9A-Fa-f]{2}$/.test(digits) ? Number.parseInt(digits, 16) : undefined;
}
