import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { waitFor } from "../helpers/service.js";

/*
 * A real `rclone mount` of a local folder, for the poll watcher's tests.
 * (The mount-safety branch has its own helper; the integrator may merge the two.)
 */
const haveTools = existsSync("/dev/fuse") && spawnSync("rclone", ["version"]).status === 0 && spawnSync("fusermount3", ["-V"]).status === 0;
// In CI (.ci/run installs rclone and fuse3) missing tools fail the tests instead of skipping them.
export const canMount = haveTools || Boolean(process.env.CI);
if (!canMount) console.warn("rclone, fusermount3 or /dev/fuse missing: the rclone mount watch tests are skipped");

export interface RcloneMount {
  /** Refreshes the mount's directory cache for `dir` (relative to the mount), as rclone's RC does. */
  refresh(dir: string): Promise<void>;
  /** Stops rclone, which unmounts: the mount point becomes the empty folder under it. */
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

function isMounted(point: string): boolean {
  return readFileSync("/proc/self/mounts", "utf8")
    .split("\n")
    .some((line) => line.split(" ")[1] === point);
}

export async function mountRclone(source: string, mountPoint: string): Promise<RcloneMount> {
  const port = await freePort();
  const args = [
    "mount",
    source,
    mountPoint,
    "--dir-cache-time",
    "1h",
    "--poll-interval",
    "0",
    "--rc",
    "--rc-addr",
    `127.0.0.1:${port}`,
    "--rc-no-auth",
  ];
  const child: ChildProcess = spawn("rclone", args, { stdio: "ignore" });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await waitFor(() => isMounted(mountPoint), 15_000, "rclone to mount");
  return {
    async refresh(dir) {
      const res = await fetch(`http://127.0.0.1:${port}/vfs/refresh`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ dir }),
      });
      const body = (await res.json()) as { result?: Record<string, string> };
      if (body.result?.[dir] !== "OK") throw new Error(`vfs/refresh ${dir}: ${JSON.stringify(body)}`);
    },
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
      if (isMounted(mountPoint)) spawnSync("fusermount3", ["-uz", mountPoint]);
    },
  };
}
