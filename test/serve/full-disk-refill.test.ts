import { afterEach, describe, expect, it } from "vitest";
import { downloadPayload } from "../fakes/arr-payloads.js";
import { postJson } from "../helpers/service.js";
import { canMountSmallDisk } from "../helpers/small-disk.js";
import { healthOf, serveOn, smallDiskInstall, walBytesOf } from "../helpers/small-disk-service.js";

const MIB = 1024 * 1024;
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

type Serve = Awaited<ReturnType<typeof serveOn>>;

/** Sonarr's On Import of episode `n`: a file never named before, in one of ten season folders. */
function imported(s: Serve, n: number): Promise<{ status: number }> {
  const show = `Show ${n % 10}`;
  const item = { id: (n % 10) + 1, title: show, path: `/tv/${show}` };
  return postJson(s.base, downloadPayload("sonarr", "Sonarr", item, `Season 1/${show} - S01E${String(n).padStart(4, "0")}.mkv`));
}

/** Imports from `from` on until one is refused (the first may still fit in room the WAL had); fails after 15 s. */
async function importUntilRefused(s: Serve, from: number): Promise<number> {
  const end = Date.now() + 15_000;
  for (let n = from; Date.now() < end; n++) if ((await imported(s, n)).status === 507) return n + 1;
  throw new Error("imports were still accepted 15 s after the disk filled");
}

/** The largest the WAL file is seen while `work` runs, looked at every 5 ms and after it. */
async function largestWalDuring<T>(walBytes: () => number, work: () => Promise<T>): Promise<{ result: T; largest: number }> {
  let largest = walBytes();
  const look = setInterval(() => {
    largest = Math.max(largest, walBytes());
  }, 5);
  try {
    const result = await work();
    return { result, largest: Math.max(largest, walBytes()) };
  } finally {
    clearInterval(look);
  }
}

describe.skipIf(!canMountSmallDisk)("serve after a full disk, with imports streaming in once space returns", () => {
  it.each([
    { mib: 8, imports: 300 },
    { mib: 16, imports: 400 },
  ])(
    "on $mib MiB takes all $imports imports, keeps the WAL under half the disk and stays healthy",
    async ({ mib, imports }) => {
      const install = await smallDiskInstall(mib * MIB, cleanups);
      const s = await serveOn(install, cleanups);
      install.disk.fill();
      let n = await importUntilRefused(s, 0);
      expect((await imported(s, n++)).status).toBe(507);
      install.disk.free();
      await expect.poll(async () => (await healthOf(s.origin)).status, { timeout: 10_000, interval: 100 }).toBe(200);

      // One at a time, as fast as they are answered: a burst no checkpoint a second keeps up with.
      const { result: statuses, largest } = await largestWalDuring(
        () => walBytesOf(install.paths),
        async () => {
          const answers: number[] = [];
          for (let i = 0; i < imports; i++) answers.push((await imported(s, n++)).status);
          return answers;
        },
      );
      expect(statuses.filter((status) => status === 202)).toHaveLength(imports);
      expect(largest).toBeLessThan((mib * MIB) / 2);
      expect((await healthOf(s.origin)).status).toBe(200);
    },
    90_000,
  );

  it("empties the WAL while it refuses writes, so the bytes it held are free, and recovers by itself", async () => {
    const install = await smallDiskInstall(8 * MIB, cleanups);
    const s = await serveOn(install, cleanups);
    let n = 0;
    const end = Date.now() + 10_000;
    while (walBytesOf(install.paths) < MIB && Date.now() < end) expect((await imported(s, n++)).status).toBe(202);
    expect(walBytesOf(install.paths)).toBeGreaterThanOrEqual(MIB);

    install.disk.fill();
    n = await importUntilRefused(s, n);
    expect((await healthOf(s.origin)).status).toBe(503);
    await expect.poll(() => walBytesOf(install.paths), { timeout: 5_000, interval: 50 }).toBe(0);
    expect((await imported(s, n++)).status).toBe(507);

    install.disk.free();
    await expect.poll(async () => (await healthOf(s.origin)).status, { timeout: 10_000, interval: 100 }).toBe(200);
    expect((await imported(s, n++)).status).toBe(202);
  }, 60_000);
});
