import { describe, expect, it } from "vitest";
import { createTurnShare } from "../../src/server/turn-share.js";

/** Counts the loop's turns: the share's own turn was scheduled first, so in each check phase it runs before this. */
function turnCounter(turns: number): { now(): number } {
  let count = 0;
  const step = () => {
    count += 1;
    if (count < turns) setImmediate(step);
  };
  setImmediate(step);
  return { now: () => count };
}

describe("sharing the loop's turns while clients connect", () => {
  it("lets two requests on per turn while clients connect, the others in arrival order in the next turns", async () => {
    const clock = 0;
    const share = createTurnShare(2, 250, () => clock);
    share.noteConnection();
    const entries = Array.from({ length: 7 }, () => share.enter());
    expect(entries.slice(0, 2)).toEqual([undefined, undefined]);
    const turns = turnCounter(10);
    const order: number[] = [];
    const wentOnIn = await Promise.all(
      entries.slice(2).map((entry, i) =>
        (entry as Promise<void>).then(() => {
          order.push(i);
          return turns.now();
        }),
      ),
    );
    expect(wentOnIn).toEqual([0, 0, 1, 1, 2]);
    expect(order).toEqual([0, 1, 2, 3, 4]);
  });

  it("lets every request on at once when no client connected for the quiet time", () => {
    let clock = 0;
    const share = createTurnShare(2, 250, () => clock);
    share.noteConnection();
    clock = 251;
    expect(Array.from({ length: 50 }, () => share.enter())).toEqual(Array(50).fill(undefined));
  });

  it("lets the ones still waiting on all at once in the first turn after the connections stopped", async () => {
    let clock = 0;
    const share = createTurnShare(1, 250, () => clock);
    share.noteConnection();
    const entries = Array.from({ length: 6 }, () => share.enter());
    clock = 300;
    const turns = turnCounter(5);
    const wentOnIn = await Promise.all(entries.slice(1).map((entry) => (entry as Promise<void>).then(() => turns.now())));
    expect(wentOnIn).toEqual([0, 0, 0, 0, 0]);
  });
});
