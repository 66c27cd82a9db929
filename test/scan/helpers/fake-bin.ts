import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** What one fake executable saw: its name, argv (without node and script) and chosen variables. */
export interface Recorded {
  /** "scanner-end" is written when the scanner exits, only with $FAKE_SCANNER_MARK_END set. */
  tool: "docker" | "sudo" | "scanner" | "scanner-end";
  argv: string[];
  env: Record<string, string | null>;
}

export interface FakeBin {
  /** Directory to put first on PATH; holds `docker` and `sudo`. */
  binDir: string;
  /** The fake Plex Media Scanner, at a path with spaces like the real one. */
  scanner: string;
  /** Environment for the child: PATH with binDir first, and where to record. */
  env: NodeJS.ProcessEnv;
  records(): Recorded[];
}

const WATCHED = ["LD_LIBRARY_PATH", "PLEX_MEDIA_SERVER_APPLICATION_SUPPORT_DIR", "FAKE_MARK"];

// Shared by the three fakes: append one JSON line per call to $FAKE_RECORD.
const RECORD = `
const fs = require("node:fs");
function record(tool, argv) {
  const env = {};
  for (const k of ${JSON.stringify(WATCHED)}) env[k] = process.env[k] ?? null;
  fs.appendFileSync(process.env.FAKE_RECORD, JSON.stringify({ tool, argv, env }) + "\\n");
}`;

// Behaves like Plex Media Scanner enough for scanarr: prints, may wait, exits with $FAKE_SCANNER_EXIT.
const SCANNER = `${RECORD}
record("scanner", process.argv.slice(2));
process.stdout.write("Scanning " + process.argv[process.argv.length - 1] + "\\n");
process.stderr.write("The '--scan' operation is deprecated\\n");
const wait = Number(process.env.FAKE_SCANNER_SLEEP_MS ?? 0);
setTimeout(() => {
  if (process.env.FAKE_SCANNER_MARK_END) record("scanner-end", process.argv.slice(2));
  process.exit(Number(process.env.FAKE_SCANNER_EXIT ?? 0));
}, wait);`;

// docker exec -u USER [-e K=V]... CONTAINER CMD ARGS: the command sees only the -e variables,
// as a process inside a container would not see the host's environment.
const DOCKER = `${RECORD}
const { spawnSync } = require("node:child_process");
const argv = process.argv.slice(2);
record("docker", argv);
if (argv[0] !== "exec") { console.error("fake docker: only exec"); process.exit(2); }
let i = 1; let user = "root"; const env = { PATH: process.env.PATH, FAKE_RECORD: process.env.FAKE_RECORD };
for (;;) {
  if (argv[i] === "-u") { user = argv[i + 1]; i += 2; continue; }
  if (argv[i] === "-e") { const kv = argv[i + 1]; const at = kv.indexOf("="); env[kv.slice(0, at)] = kv.slice(at + 1); i += 2; continue; }
  break;
}
const container = argv[i];
if (container !== "plex") { console.error("Error response from daemon: No such container: " + container); process.exit(1); }
if (user !== "plex" && user !== "abc") { console.error("unable to find user " + user + ": no matching entries in passwd file"); process.exit(126); }
for (const k of ["FAKE_SCANNER_EXIT", "FAKE_SCANNER_SLEEP_MS", "FAKE_SCANNER_MARK_END"]) if (process.env[k]) env[k] = process.env[k];
const r = spawnSync(argv[i + 1], argv.slice(i + 2), { env, stdio: "inherit" });
if (r.error) { console.error("OCI runtime exec failed: exec: " + JSON.stringify(argv[i + 1]) + ": stat: no such file or directory"); process.exit(127); }
process.exit(r.status ?? 1);`;

// sudo [-n] -u USER CMD ARGS: env_reset leaves only PATH; "ghost" does not exist; -n without NOPASSWD fails.
const SUDO = `${RECORD}
const { spawnSync } = require("node:child_process");
const argv = process.argv.slice(2);
record("sudo", argv);
let i = 0; let user = "root"; let nonInteractive = false;
for (;;) {
  if (argv[i] === "-n") { nonInteractive = true; i += 1; continue; }
  if (argv[i] === "-u") { user = argv[i + 1]; i += 2; continue; }
  break;
}
if (user === "ghost") { console.error("sudo: unknown user ghost"); process.exit(1); }
if (nonInteractive && process.env.FAKE_SUDO_NEEDS_PASSWORD) { console.error("sudo: a password is required"); process.exit(1); }
const env = { PATH: process.env.PATH, FAKE_RECORD: process.env.FAKE_RECORD };
for (const k of ["FAKE_SCANNER_EXIT", "FAKE_SCANNER_SLEEP_MS", "FAKE_SCANNER_MARK_END"]) if (process.env[k]) env[k] = process.env[k];
const r = spawnSync(argv[i], argv.slice(i + 1), { env, stdio: "inherit" });
if (r.error) { console.error("sudo: " + argv[i] + ": command not found"); process.exit(1); }
process.exit(r.status ?? 1);`;

function writeTool(file: string, body: string): void {
  writeFileSync(file, `#!${process.execPath}\n${body}\n`);
  chmodSync(file, 0o755);
}

/** Fake docker, sudo and scanner in a fresh temp dir; `sudo` runs the real env(1). */
export function createFakeBin(): FakeBin {
  const root = mkdtempSync(path.join(tmpdir(), "scanarr-fakebin-"));
  const binDir = path.join(root, "bin");
  mkdirSync(binDir);
  const scannerDir = path.join(root, "usr lib", "Plex Media Server");
  mkdirSync(scannerDir, { recursive: true });
  const scanner = path.join(scannerDir, "Plex Media Scanner");
  writeTool(scanner, SCANNER);
  writeTool(path.join(binDir, "docker"), DOCKER);
  writeTool(path.join(binDir, "sudo"), SUDO);
  const recordFile = path.join(root, "record.jsonl");
  const env: NodeJS.ProcessEnv = { PATH: `${binDir}:/usr/bin:/bin`, FAKE_RECORD: recordFile, FAKE_MARK: "from-scanarr" };
  return {
    binDir,
    scanner,
    env,
    records: () =>
      existsSync(recordFile)
        ? readFileSync(recordFile, "utf8")
            .trim()
            .split("\n")
            .filter(Boolean)
            .map((l) => JSON.parse(l) as Recorded)
        : [],
  };
}

/** A growing stream that keeps what was written, for asserting on output. */
export function createSink(): NodeJS.WritableStream & { text(): string } {
  const chunks: Buffer[] = [];
  return {
    write(chunk: string | Uint8Array) {
      chunks.push(Buffer.from(chunk));
      return true;
    },
    text: () => Buffer.concat(chunks).toString("utf8"),
  } as unknown as NodeJS.WritableStream & { text(): string };
}
