import { existsSync, statSync } from "node:fs";
import type { Config } from "../../src/config/types.js";
import { resolveInstallPaths, type InstallPaths } from "../../src/lib/install-paths.js";
import { startFakePlex, type FakePlex } from "../fakes/plex.js";
import { tempDir } from "./cli.js";
import { ARR_SECTIONS, startServiceOn, testServiceConfig, type TestService } from "./service.js";
import { mountSmallDisk, type SmallDisk } from "./small-disk.js";

/** The fake Plex, and an install whose data folder is a small file system of its own. */
export interface SmallDiskInstall {
  plex: FakePlex;
  paths: InstallPaths;
  disk: SmallDisk;
  config: Config;
}

/** Mounts `sizeBytes` of tmpfs on a new install's data folder; `cleanups` gets its unmount and Plex's close. */
export async function smallDiskInstall(
  sizeBytes: number,
  cleanups: Array<() => Promise<void> | void>,
  overrides: Partial<Config> = {},
): Promise<SmallDiskInstall> {
  const plex = await startFakePlex({ sections: ARR_SECTIONS });
  cleanups.push(() => plex.close());
  const paths = resolveInstallPaths(tempDir());
  const disk = mountSmallDisk(paths.dataDir, sizeBytes);
  cleanups.push(() => disk.unmount());
  return { plex, paths, disk, config: testServiceConfig(plex, overrides) };
}

/** The in-process service on that install; `cleanups` stops it (unless the test stopped it already). */
export async function serveOn(
  install: SmallDiskInstall,
  cleanups: Array<() => Promise<void> | void>,
): Promise<Pick<TestService, "service" | "origin" | "base" | "logs">> {
  const started = await startServiceOn(install.config, install.paths, { env: {} });
  let stopped = false;
  cleanups.push(() => (stopped ? undefined : started.service.stop()));
  const stop = async () => {
    stopped = true;
    await started.service.stop();
  };
  return { ...started, service: { ...started.service, stop } };
}

export async function healthOf(origin: string): Promise<{ status: number; body: { status: string; reasons?: string[] } }> {
  const res = await fetch(`${origin}/health`);
  return { status: res.status, body: (await res.json()) as { status: string; reasons?: string[] } };
}

/** The size of the database's WAL file; 0 when there is none. */
export const walBytesOf = (paths: Pick<InstallPaths, "database">) =>
  existsSync(`${paths.database}-wal`) ? statSync(`${paths.database}-wal`).size : 0;
