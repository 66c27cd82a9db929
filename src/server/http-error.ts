import { DatabaseUnwritableError, storageTroubleOf } from "../queue/storage/storage-errors.js";

/** An answer other than success, with the status and a reason safe to show. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** How long a client is told to wait before it tries again while the database cannot write. */
export const RETRY_AFTER_SECONDS = "60";

/**
 * 507 Insufficient Storage for a request the database could not take (disk
 * full, I/O error, read-only): nothing of it was written; undefined for any
 * other error.
 */
export function unwritableAnswer(error: unknown): HttpError | undefined {
  if (error instanceof DatabaseUnwritableError) return new HttpError(507, error.message, {}, { "retry-after": RETRY_AFTER_SECONDS });
  if (storageTroubleOf(error) === undefined) return undefined;
  const code = (error as { code?: string }).code;
  return new HttpError(
    507,
    `not done, nothing was written: the database cannot write (${code}); see /health`,
    {},
    {
      "retry-after": RETRY_AFTER_SECONDS,
    },
  );
}
