import { createInterface } from "node:readline";
import { InterruptedError } from "../domain.js";
import { parsePastedAuthorization } from "./authorization-response.js";

export interface AwaitAuthorizationInput {
  /** Settles when the browser reaches the loopback listener. */
  fromBrowser: Promise<string>;
  /** Lines the user pastes; end of input leaves the browser path alone. */
  input: NodeJS.ReadableStream;
  state: string;
  signal: AbortSignal;
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
 * address. Blank lines are skipped, so a stray Enter does not end the wait.
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
    const fromPaste = readPastedCode(lines, options.state).then((code) => ({ code, via: "paste" as const }));
    return await Promise.race([fromBrowser, fromPaste, interrupted]);
  } finally {
    if (onAbort) options.signal.removeEventListener("abort", onAbort);
    lines.close();
  }
}

async function readPastedCode(lines: AsyncIterable<string>, state: string): Promise<string> {
  for await (const line of lines) {
    if (line.trim() === "") continue;
    return parsePastedAuthorization(line, state);
  }
  // Input ended (stdin closed or /dev/null): only the browser can finish now.
  return new Promise<string>(() => undefined);
}
