/**
 * Resolves on the event loop's next turn, after the I/O waiting now (other
 * requests) had its go: what long work awaits between its slices so it never
 * holds the loop for long.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
