import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const MODULE = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), "../../src/lib/optimizer-hold.ts")).href;
// V8's %GetOptimizationStatus bits.
const TURBOFANNED = 1 << 6;
const BASELINE = 1 << 15;

/**
 * In a node of its own (the flags are per process): a new function made hot
 * before the hold, while held and after the release, each one's V8 status.
 */
function statusesIn(nodeFlags: string[]): { held: number; released: number } {
  const script = `
    const status = new Function("f", "return %GetOptimizationStatus(f)");
    const hot = () => { const f = new Function("x", "return x * 2 + 1"); let s = 0; for (let i = 0; i < 3e6; i++) s += f(i); return status(f); };
    const { holdOptimizer, releaseOptimizer } = await import(${JSON.stringify(MODULE)});
    holdOptimizer(${JSON.stringify(nodeFlags.join(" "))});
    const held = hot();
    releaseOptimizer();
    console.log(JSON.stringify({ held, released: hot() }));`;
  const args = ["--import", "tsx", "--allow-natives-syntax", ...nodeFlags, "--input-type=module", "-e", script];
  return JSON.parse(execFileSync(process.execPath, args, { encoding: "utf8" })) as { held: number; released: number };
}

describe("holdOptimizer", () => {
  it("keeps a hot function in the interpreter while held, and optimizes it once released", () => {
    const { held, released } = statusesIn([]);
    expect(held & (TURBOFANNED | BASELINE)).toBe(0);
    expect(released & TURBOFANNED).toBe(TURBOFANNED);
  }, 30_000);

  it("leaves TurboFan off when the user turned it off", () => {
    const { released } = statusesIn(["--no-opt"]);
    expect(released & TURBOFANNED).toBe(0);
  }, 30_000);
});
