// An anchor file that flaps (gone 50–600 ms, there 50–400 ms, faster than
// any anchor poll) while manual-scan webhooks stream into the real service
// (in process) for `seconds`; then it stays. Counts the scans the fake Plex
// received more than `boundMs` after the anchor vanished and before it was
// back. Exits 1 on any such scan or an acknowledged folder never delivered.
//   node --import tsx bench/anchor-flap.ts [seconds] [seed] [boundMs]
import { runAnchorFlap } from "../test/helpers/anchor-flap.js";

const seconds = Number(process.argv[2] ?? 25);
const seed = Number(process.argv[3] ?? 20);
const boundMs = Number(process.argv[4] ?? 150);
const result = await runAnchorFlap({ seconds, seed, boundMs, drainMs: 30_000 });
console.log(JSON.stringify({ seconds, seed, boundMs, ...result }, null, 2));
process.exitCode = result.violations === 0 && result.undelivered.length === 0 ? 0 : 1;
