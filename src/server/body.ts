import type { IncomingMessage } from "node:http";
import { HttpError } from "./http-error.js";

/** Largest request body accepted; Sonarr's biggest season-pack imports stay far below it. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface ParsedBody {
  format: "json" | "form";
  value: unknown;
}

/** Reads the whole body, answering 413 as soon as it passes `limit` bytes. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, `request body is larger than ${limit} bytes`);
}

/**
 * JSON for any JSON media type (`application/json; charset=utf-8`,
 * `application/vnd.x+json`, `text/json`), form fields for
 * `application/x-www-form-urlencoded`; without a Content-Type the body's
 * first character decides.
 */
export function parseBody(raw: Buffer, contentType: string | undefined): ParsedBody {
  const text = raw.toString("utf8");
  if (text.trim() === "") throw new HttpError(400, "the request body is empty");
  const type = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  const isJson = type === "application/json" || type === "text/json" || type.endsWith("+json") || (type === "" && /^\s*[[{]/.test(text));
  if (isJson) {
    try {
      return { format: "json", value: JSON.parse(text) as unknown };
    } catch (error) {
      throw new HttpError(400, `the body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (type === "application/x-www-form-urlencoded" || type === "" || type === "text/plain") {
    const fields: Record<string, string> = {};
    for (const [key, value] of new URLSearchParams(text)) fields[key] = value;
    return { format: "form", value: fields };
  }
  throw new HttpError(415, `unsupported Content-Type ${JSON.stringify(type)}; send JSON or form fields`);
}
