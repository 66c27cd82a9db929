import { createInterface } from "node:readline";
import { InterruptedError } from "../domain.js";
import { NotAnAuthorizationAnswer, parsePastedAuthorization } from "./authorization-response.js";

export interface AwaitAuthorizationInput {
  /** Settles when the browser reaches the loopback listener. */
  fromBrowser: Promise<string>;
  /** Lines the user pastes; end of input leaves the browser path alone. */
  input: NodeJS.ReadableStream;
  state: string;
  signal: AbortSignal;
  /** Told why a pasted line was not taken, before the next line is read. */
  onRetry?: (reason: string) => void;
}

export interface ReceivedAuthorization {
  code: string;
  via: "browser" | "paste";
}

/** Thrown when the wait is interrupted (SIGINT/SIGTERM); the CLI exits 130. */
export class AuthorizationInterrupted extends InterruptedError {
  override name = "AuthorizationInterrupted";
}

/**
 * Waits for whichever comes first: the browser's redirect or a pasted code or
 * address. Blank lines are skipped and a line that is neither is asked for
 * again, so neither a stray Enter nor a bad paste ends the wait.
 */
export async function awaitAuthorizationCode(options: AwaitAuthorizationInput): Promise<ReceivedAuthorization> {
  const lines = createInterface({ input: options.input, terminal: false, crlfDelay: Infinity });
  let onAbort: (() => void) | undefined;
  const interrupted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new AuthorizationInterrupted("interrupted; nothing was stored"));
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener("abort", onAbort, { once: true });
  });
  interrupted.catch(() => undefined);
  try {
    const fromBrowser = options.fromBrowser.then((code) => ({ code, via: "browser" as const }));
    const fromPaste = readPastedCode(lines, options.state, options.onRetry).then((code) => ({ code, via: "paste" as const }));
    return await Promise.race([fromBrowser, fromPaste, interrupted]);
  } finally {
    if (onAbort) options.signal.removeEventListener("abort", onAbort);
    lines.close();
  }
}

async function readPastedCode(lines: AsyncIterable<string>, state: string, onRetry?: (reason: string) => void): Promise<string> {
  for await (const line of lines) {
    if (line.trim() === "") continue;
    try {
      return parsePastedAuthorization(line, state);
    } catch (error) {
      // A typo ends nothing: say why and read the next line.
      if (!(error instanceof NotAnAuthorizationAnswer)) throw error;
      onRetry?.(error.message);
    }
  }
  // Input ended (stdin closed or /dev/null): only the browser can finish now.
  return new Promise<string>(() => undefined);
}
