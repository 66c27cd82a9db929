// `npm run build`: bundles src/ into dist/cli/ with esbuild (types are checked by `tsc --noEmit`).
// A few chunk files load far less than ~270 ES modules, each a module record and code in V8's
// heap (issue 35). Splitting keeps every `await import()` of src/ lazy: each becomes a chunk of
// its own, loaded on first use. Packages stay outside the bundle, loaded from node_modules as
// before: native ones (better-sqlite3, argon2) must, and the rest keep their own lazy imports.
// Every output file sits in dist/cli/, so `import.meta.url`-relative paths (../../package.json,
// ./probe-child.js) resolve as they do from src/<folder>/ under tsx.
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { build } from "esbuild";

rmSync("dist", { recursive: true, force: true });
await build({
  // The commit thread's module (src/queue/thread/commit-thread.ts starts it as ./commit-worker.js).
  entryPoints: { "cli/main": "src/cli/main.ts", "cli/commit-worker": "src/queue/thread/commit-worker.ts" },
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
latin1Only("dist/cli");
// Run by a bare `node` child of its own (mount/probe-worker.ts), never imported: copied as is.
copyFileSync("src/mount/probe-child.js", "dist/cli/probe-child.js");

/**
 * V8 keeps a module's source text in its heap for the life of the process, one byte a character
 * only while every character is Latin-1: one "—" in an `html` template made the 260 KB serve
 * chunk a 520 KB string (issue 35). esbuild escapes strings but keeps comments and tagged
 * templates' text as written, so the rest is escaped here: `\uXXXX` means the same character in
 * a template's cooked text (what `html` reads), a string, a regular expression or a comment.
 * A backslash just before one would change its meaning: the build stops there instead.
 */
function latin1Only(dir) {
  for (const name of readdirSync(dir).filter((file) => file.endsWith(".js"))) {
    const file = `${dir}/${name}`;
    const text = readFileSync(file, "utf8");
    if (!/[^\u0000-\u00ff]/.test(text)) continue;
    const escaped = text.replace(/(\\?)([^\u0000-\u00ff])/g, (whole, backslash, char) => {
      if (backslash) throw new Error(`${file}: a backslash before "${char}"; write it another way in the source`);
      return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
    });
    writeFileSync(file, escaped);
  }
}
