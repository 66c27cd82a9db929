// `npm run build`: bundles src/ into dist/cli/ with esbuild (types are checked by `tsc --noEmit`).
// A few chunk files load far less than ~270 ES modules, each a module record and code in V8's
// heap (issue 35). Splitting keeps every `await import()` of src/ lazy: each becomes a chunk of
// its own, loaded on first use. Packages stay outside the bundle, loaded from node_modules as
// before: native ones (better-sqlite3, argon2) must, and the rest keep their own lazy imports.
// Every output file sits in dist/cli/, so `import.meta.url`-relative paths (../../package.json,
// ./probe-child.js) resolve as they do from src/<folder>/ under tsx.
import { copyFileSync, rmSync } from "node:fs";
import { build } from "esbuild";

rmSync("dist", { recursive: true, force: true });
await build({
  entryPoints: { "cli/main": "src/cli/main.ts" },
  outdir: "dist",
  chunkNames: "cli/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  // Not minified: stack traces in logs read like the source.
  minify: false,
  legalComments: "none",
  logLevel: "warning",
});
// Run by a bare `node` child of its own (mount/probe-worker.ts), never imported: copied as is.
copyFileSync("src/mount/probe-child.js", "dist/cli/probe-child.js");
