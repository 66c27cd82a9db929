import { setFlagsFromString } from "node:v8";

/** V8's compilers beyond the interpreter (the optimizing one, the baseline one), and the node flags that turn each off. */
const COMPILERS = {
  turbofan: ["--no-turbofan", "--no-opt", "--jitless"],
  sparkplug: ["--no-sparkplug", "--jitless"],
};

let held: string[] = [];

/**
 * Holds back V8's optimizing (TurboFan) and baseline (Sparkplug) compilers
 * while a command loads. Loading some 270 modules makes Node's module
 * resolver hot: optimizing it pages in about 4 MB of TurboFan's own machine
 * code from the node binary, and Sparkplug compiles start-up code once run,
 * about 1 MB more, which an idle `serve` then keeps in its RSS without using
 * (issue 35, bench/README.md). The interpreter runs meanwhile. `nodeFlags`
 * are the process's node flags (execArgv and NODE_OPTIONS): a compiler the
 * user turned off there stays off.
 */
export function holdOptimizer(nodeFlags: string): void {
  const given = nodeFlags.split(/\s+/);
  held = Object.entries(COMPILERS)
    .filter(([, offFlags]) => !offFlags.some((flag) => given.includes(flag)))
    .map(([name]) => name);
  for (const name of held) setFlagsFromString(`--no-${name}`);
}

/** Lets the compilers work again (once the command has loaded, or serve has started and settled or had a request). */
export function releaseOptimizer(): void {
  for (const name of held) setFlagsFromString(`--${name}`);
  held = [];
}
