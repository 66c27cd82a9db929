#!/usr/bin/env node
// V8's compilers wait until the modules are loaded (lib/optimizer-hold.ts); a static import would load them all first.
import { holdOptimizer } from "../dist/lib/optimizer-hold.js";

holdOptimizer(`${process.execArgv.join(" ")} ${process.env.NODE_OPTIONS ?? ""}`);
await import("../dist/cli/main.js");
