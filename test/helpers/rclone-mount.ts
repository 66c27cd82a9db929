import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * Real rclone processes for mount-safety tests: `rclone mount` on temp dirs
 * (FUSE), `rclone serve webdav` and `rclone rcd` (remote control without FUSE).
 * Each test gets its own temp dirs and port; everything started here is
 * stopped and unmounted by cleanupRclone() (call it in afterEach) and, as a
 * last resort, when the test process exits.
 */

const FUSE_NEEDS = [
  ["/dev/fuse", existsSync("/dev/fuse")],
  ["fusermount3", spawnSync("fusermount3", ["--version"]).error === undefined],
  ["rclone", spawnSync("rclone", ["version"]).status === 0],
] as const;
const missingForMount = FUSE_NEEDS.filter(([, ok]) => !ok).map(([name]) => name);

/** Real-mount tests run where FUSE and rclone exist, and always under CI=true (where a missing one must fail, not skip). */
export const canMount = missingForMount.length === 0 || Boolean(process.env.CI);
if (!canMount) console.warn(`skipping real rclone mount tests: missing ${missingForMount.join(", ")} (apt-get install fuse3 rclone)`);

/** RC-only tests need just the rclone binary. */
export const canRunRclone = spawnSync("rclone", ["version"]).status === 0 || Boolean(process.env.CI);
if (!canRunRclone) console.warn("skipping rclone remote-control tests: rclone is not installed (apt-get install rclone)");

export interface RcAuth {
  user: string;
  pass: string;
}

interface Started {
  child: ChildProcess;
  rcUrl: string;
  stop(): Promise<void>;
}

const running = new Set<Started>();
const mountPoints = new Set<string>();
const tempDirs = new Set<string>();

export function makeTempDir(prefix = "scanarr-mount-"): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

export function isMounted(mountPoint: string): boolean {
  const mounts = readFileSync("/proc/self/mounts", "utf8");
  return mounts.split("\n").some((line) => line.split(" ")[1] === mountPoint.replace(/ /g, "\\040"));
}

/** Polls a condition every 20 ms until it holds or `ms` pass; a bounded wait on state, not a sleep. */
export async function waitFor(what: string, condition: () => boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function authArgs(auth: RcAuth | undefined): string[] {
  return auth ? ["--rc-user", auth.user, "--rc-pass", auth.pass] : ["--rc-no-auth"];
}

/**
 * Starts rclone with `args`; resolves once it logged its remote-control
 * address and, when given, the line saying the rest is ready (`serve` starts
 * its VFS after the remote control).
 */
async function startRclone(args: string[], rcPort: number, configDir: string, ready?: RegExp): Promise<Started> {
  const rcFlag = args[0] === "rcd" ? [] : ["--rc"]; // rcd refuses --rc
  const child = spawn("rclone", [...args, ...rcFlag, "--rc-addr", `127.0.0.1:${rcPort}`, "--config", path.join(configDir, "rclone.conf")], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const rcUrl = await new Promise<string>((resolve, reject) => {
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      log += chunk;
      const match = /Serving remote control on (http:\/\/127\.0\.0\.1:\d+)\//.exec(log);
      if (match?.[1] && (!ready || ready.test(log))) resolve(match[1]);
    });
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`rclone ${args[0]} exited with ${code} before serving:\n${log}`)));
  });
  const started: Started = {
    child,
    rcUrl,
    async stop() {
      running.delete(started);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGCONT");
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
  running.add(started);
  return started;
}

export interface RcloneMount {
  src: string;
  mnt: string;
  /** http://127.0.0.1:PORT, stable across remount(). */
  rcUrl: string;
  readonly pid: number | undefined;
  /** Stops rclone: the mount drops and `mnt` is an empty folder. */
  stop(): Promise<void>;
  /** Starts rclone again on the same folders and port. */
  remount(): Promise<void>;
  /** kill -STOP: every access under `mnt` hangs until resume(). */
  pause(): void;
  resume(): void;
}

/**
 * `rclone mount SRC MNT --rc ... --dir-cache-time 1h --poll-interval 0` on
 * fresh temp dirs: a file written into SRC stays invisible under MNT until
 * the VFS is refreshed, as with a cloud remote.
 */
export async function startRcloneMount(options: { auth?: RcAuth } = {}): Promise<RcloneMount> {
  const root = makeTempDir();
  const src = path.join(root, "src");
  const mnt = path.join(root, "mnt");
  mkdirSync(src);
  mkdirSync(mnt);
  let port = 0;
  let current: Started | undefined;
  const start = async (): Promise<void> => {
    const args = ["mount", src, mnt, ...authArgs(options.auth), "--dir-cache-time", "1h", "--poll-interval", "0"];
    current = await startRclone(args, port, root);
    port = Number(new URL(current.rcUrl).port);
    mountPoints.add(mnt);
    await waitFor(`${mnt} to be mounted`, () => isMounted(mnt));
  };
  await start();
  const handle: RcloneMount = {
    src,
    mnt,
    rcUrl: `http://127.0.0.1:${port}`,
    get pid() {
      return current?.child.pid;
    },
    async stop() {
      await current?.stop();
      current = undefined;
      unmount(mnt);
    },
    remount: start,
    pause: () => current?.child.kill("SIGSTOP"),
    resume: () => current?.child.kill("SIGCONT"),
  };
  return handle;
}

export interface RcloneServer {
  rcUrl: string;
  stop(): Promise<void>;
  /** `rcd` only: mounts another VFS through the remote control (mount/mount), so several are active. */
  mount?(src: string, mnt: string): Promise<void>;
}

/** `rclone serve webdav DIR --rc ...`: one VFS with a remote control, no FUSE needed. */
export async function startRcloneServe(dir: string, options: { auth?: RcAuth; rcPort?: number } = {}): Promise<RcloneServer> {
  const args = ["serve", "webdav", dir, "--addr", "127.0.0.1:0", ...authArgs(options.auth)];
  const started = await startRclone(args, options.rcPort ?? 0, makeTempDir(), /WebDav Server started/);
  return { rcUrl: started.rcUrl, stop: () => started.stop() };
}

/** `rclone rcd`: a bare remote control; mount() adds FUSE mounts to it (needs canMount). */
export async function startRcloneRcd(options: { auth?: RcAuth } = {}): Promise<Required<RcloneServer>> {
  const started = await startRclone(["rcd", ...authArgs(options.auth)], 0, makeTempDir());
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.auth) headers.authorization = `Basic ${Buffer.from(`${options.auth.user}:${options.auth.pass}`).toString("base64")}`;
  return {
    rcUrl: started.rcUrl,
    stop: () => started.stop(),
    async mount(src, mnt) {
      const body = JSON.stringify({ fs: src, mountPoint: mnt, vfsOpt: { DirCacheTime: 3_600_000_000_000 } });
      const response = await fetch(`${started.rcUrl}/mount/mount`, { method: "POST", headers, body });
      if (!response.ok) throw new Error(`mount/mount failed: ${response.status} ${await response.text()}`);
      mountPoints.add(mnt);
      await waitFor(`${mnt} to be mounted`, () => isMounted(mnt));
    },
  };
}

function unmount(mountPoint: string): void {
  if (isMounted(mountPoint)) spawnSync("fusermount3", ["-uz", mountPoint]);
  mountPoints.delete(mountPoint);
}

/** Stops every rclone started here, unmounts what is left and removes the temp dirs. */
export async function cleanupRclone(): Promise<void> {
  await Promise.all([...running].map((r) => r.stop()));
  for (const mnt of [...mountPoints]) unmount(mnt);
  for (const dir of [...tempDirs]) {
    rmSync(dir, { recursive: true, force: true });
    tempDirs.delete(dir);
  }
}

// A crashed or interrupted test must not leave a hung mount or a stopped rclone behind.
process.once("exit", () => {
  for (const r of running) {
    r.child.kill("SIGCONT");
    r.child.kill("SIGKILL");
  }
  for (const mnt of mountPoints) spawnSync("fusermount3", ["-uz", mnt]);
});
