import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempDir } from "./cli.js";

/** Ends each run's record in the recorder's file; no argument can hold a NUL, so it cannot be forged. */
const END_OF_RUN = "--end-of-run--";

export interface ArgvRecorder {
  /** The script to run: a real /bin/sh script that writes each argument it got, NUL-terminated. */
  program: string;
  /** The arguments of each run so far, in order, exactly as the program received them. */
  runs(): string[][];
}

/**
 * A program that records what it was given, for the command target's tests:
 * `printf '%s\0'` of every argument, so quotes, `$( )`, newlines, a leading
 * `-` and any unicode come back byte for byte. With `exitCode`, it also
 * writes `stderr` and exits with that code; with `sleep`, it sleeps first.
 */
export function createArgvRecorder(options: { exitCode?: number; stderr?: string; sleepSeconds?: number } = {}): ArgvRecorder {
  const dir = tempDir("scanarr-argv-");
  const out = path.join(dir, "argv.bin");
  const program = path.join(dir, "record-argv.sh");
  const lines = [
    "#!/bin/sh",
    `out='${out}'`,
    options.sleepSeconds ? `sleep ${options.sleepSeconds}` : "",
    `for arg in "$@"; do printf '%s\\0' "$arg" >> "$out"; done`,
    `printf '%s\\0' '${END_OF_RUN}' >> "$out"`,
    "echo 'a line on stdout'",
    options.stderr ? `printf '%s\\n' '${options.stderr}' >&2` : "",
    `exit ${options.exitCode ?? 0}`,
  ];
  writeFileSync(program, `${lines.filter((l) => l !== "").join("\n")}\n`);
  chmodSync(program, 0o755);
  return {
    program,
    runs() {
      if (!existsSync(out)) return [];
      const runs: string[][] = [[]];
      for (const arg of readFileSync(out, "utf8").split("\0").slice(0, -1)) {
        if (arg === END_OF_RUN) runs.push([]);
        else runs[runs.length - 1]?.push(arg);
      }
      return runs.slice(0, -1);
    },
  };
}
