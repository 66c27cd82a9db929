/**
 * Node accepts one waiting connection per turn of the event loop, so while
 * a burst of clients connects (a restart under load, a proxy opening its
 * pool), a turn that handles every connected client's request keeps the
 * later ones out for its whole length: 64 clients connecting at once waited
 * up to 2 s for their accept, behind turns of 20 to 30 ms each.
 *
 * While connections keep arriving, at most `perTurn` requests go on to their
 * work (parsing, the way in, the group commit) in one turn and the rest wait
 * for the next turns in arrival order, so a turn stays short and the next
 * connection is accepted soon. Once no connection arrived for `quietMs`,
 * every request goes on at once, as before (one turn's requests, one commit).
 */
export interface TurnShare {
  /** A client connected. */
  noteConnection(): void;
  /** Resolves when this request may go on; undefined when it may at once (no await needed). */
  enter(): Promise<void> | undefined;
}

export function createTurnShare(perTurn = 8, quietMs = 250, now: () => number = () => performance.now()): TurnShare {
  let lastConnection = Number.NEGATIVE_INFINITY;
  let passed = 0;
  let scheduled = false;
  const waiting: Array<() => void> = [];
  const quiet = () => now() - lastConnection > quietMs;

  // Runs in the turn's check phase; rescheduled from there, it runs in the next turn's.
  function turn(): void {
    scheduled = false;
    passed = 0;
    const open = quiet();
    while (waiting.length > 0 && (open || passed < perTurn)) {
      passed += 1;
      waiting.shift()?.();
    }
    if (waiting.length > 0) schedule();
  }

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    setImmediate(turn);
  }

  return {
    noteConnection() {
      lastConnection = now();
    },
    enter() {
      if (waiting.length === 0 && (passed < perTurn || quiet())) {
        passed += 1;
        schedule();
        return undefined;
      }
      return new Promise<void>((resolve) => {
        waiting.push(resolve);
        schedule();
      });
    },
  };
}
