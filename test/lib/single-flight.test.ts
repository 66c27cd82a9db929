import { describe, expect, it } from "vitest";
import { KeyedSingleFlight, SingleFlight } from "../../src/lib/single-flight.js";

/** A promise the test settles by hand. */
function deferred<T>(): { promise: Promise<T>; resolve(value: T): void; reject(error: Error): void } {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("SingleFlight", () => {
  it("gives concurrent callers the running promise and starts the work once", async () => {
    const flight = new SingleFlight<number>();
    const gate = deferred<number>();
    let starts = 0;
    const work = () => {
      starts++;
      return gate.promise;
    };
    const a = flight.run(work);
    const b = flight.run(work);
    expect(a).toBe(b);
    expect(flight.running).toBe(true);
    gate.resolve(7);
    expect(await Promise.all([a, b])).toEqual([7, 7]);
    expect(starts).toBe(1);
    expect(flight.running).toBe(false);
  });

  it("starts afresh after a run settles, a failed one included", async () => {
    const flight = new SingleFlight<number>();
    await expect(flight.run(() => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(flight.running).toBe(false);
    expect(await flight.run(() => Promise.resolve(2))).toBe(2);
  });
});

describe("KeyedSingleFlight", () => {
  it("shares a run per key and keeps keys apart", async () => {
    const flight = new KeyedSingleFlight<string, string>();
    const gate = deferred<string>();
    const a = flight.run("x", () => gate.promise);
    const b = flight.run("x", () => Promise.resolve("never started"));
    const c = flight.run("y", () => Promise.resolve("y"));
    gate.resolve("x");
    expect(await Promise.all([a, b, c])).toEqual(["x", "x", "y"]);
    expect(await flight.run("x", () => Promise.resolve("again"))).toBe("again");
  });
});
