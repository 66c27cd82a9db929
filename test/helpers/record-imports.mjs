// Preloaded with `node --import` by tests that check what a process loads: every module
// resolved by an ESM import (static or dynamic, CommonJS packages included) is appended,
// one URL a line, to the file named by SCANARR_RECORD_IMPORTS. At exit, Node's own modules the
// process loaded are appended as `builtin:<name>` (`builtin:internal/deps/undici/undici` is fetch).
import { appendFileSync } from "node:fs";
import { register } from "node:module";
import { isMainThread } from "node:worker_threads";

// The hooks run on a thread of their own, which loads this file again: register only once.
if (isMainThread && process.env.SCANARR_RECORD_IMPORTS) {
  register(import.meta.url);
  const file = process.env.SCANARR_RECORD_IMPORTS;
  process.once("exit", () => {
    const builtins = process.moduleLoadList.filter((entry) => entry.startsWith("NativeModule "));
    appendFileSync(file, builtins.map((entry) => `builtin:${entry.slice("NativeModule ".length)}\n`).join(""));
  });
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(process.env.SCANARR_RECORD_IMPORTS, `${resolved.url}\n`);
  return resolved;
}
