/**
 * Waits until `done` holds, looking again after each turn of the event loop
 * (`everyMs` 0) or every `everyMs` (a wait that should not spin a core the
 * bench measures); throws after `timeoutMs`.
 */
export async function until(done: () => boolean, what: string, timeoutMs = 120_000, everyMs = 0): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => (everyMs === 0 ? setImmediate(resolve) : setTimeout(resolve, everyMs)));
  }
}
