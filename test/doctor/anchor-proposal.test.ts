import { readFileSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { CheckResult } from "../../src/doctor/types.js";
import { startFakePlex, type FakePlex } from "../fakes/plex.js";
import { runCli } from "../helpers/cli.js";
import { canMount, cleanupRclone, startRcloneMount } from "../helpers/rclone-mount.js";
import { setupFlags, startSetupWorld, type SetupWorld } from "../setup/setup-world.js";
import { installFor } from "./helpers.js";

let plex: FakePlex | undefined;
let world: SetupWorld | undefined;
afterEach(async () => {
  await Promise.all([plex?.close(), world?.close()]);
  plex = world = undefined;
  await cleanupRclone();
});

const SECTIONS = [
  { key: "1", title: "Movies", type: "movie", locations: ["/data/Media/Movies"] },
  { key: "2", title: "TV Shows", type: "show", locations: ["/data/Media/TV"] },
];

async function anchorsLine(overrides: Parameters<typeof installFor>[2]): Promise<CheckResult | undefined> {
  plex ??= await startFakePlex({ sections: SECTIONS });
  const { dir } = await installFor(plex.url, plex.token, overrides);
  const { stdout } = await runCli(["--install-dir", dir, "doctor", "--json"]);
  return (JSON.parse(stdout) as { checks: CheckResult[] }).checks.find((c) => c.name.startsWith("anchor"));
}

describe.skipIf(!canMount)("an anchor proposed where the libraries lie on an rclone mount", () => {
  it("fails doctor's anchors line with the anchor to create when ANCHORS is empty, and passes once it is set", async () => {
    const mount = await startRcloneMount();
    // scanarr sees Plex's /data/Media/ on the mount.
    const exist = { SERVER_FILE_EXIST_PATH_MAPPINGS: { [`${mount.mnt}/`]: ["/data/Media/"] } };
    const anchor = `${mount.mnt}/.anchor`;
    expect(await anchorsLine(exist)).toEqual({
      name: "anchors",
      ok: false,
      detail:
        `ANCHORS is empty, but the libraries' folders (${mount.mnt}/Movies, ${mount.mnt}/TV) are on the fuse.rclone mount at ${mount.mnt}, ` +
        "and a dropped mount looks like emptied libraries to a media server: create the file .anchor at the top of that mount's remote " +
        `(so it shows as ${anchor} only while the mount is up) and set ANCHORS: ${JSON.stringify([anchor])}`,
    });
    // Without the exist mapping scanarr looks at /data/Media/, not on the mount: nothing to propose.
    expect(await anchorsLine({})).toMatchObject({ name: "anchors", ok: true, detail: expect.stringContaining("ANCHORS is empty") });
    writeFileSync(`${mount.src}/.anchor`, "");
    expect(await anchorsLine({ ...exist, ANCHORS: [anchor] })).toEqual({
      name: `anchor ${anchor}`,
      ok: true,
      detail: `present, on the mount at ${mount.mnt}`,
    });
  });

  it("has setup say the same anchor, without writing it", async () => {
    const mount = await startRcloneMount();
    world = await startSetupWorld();
    const config = JSON.parse(readFileSync(world.configFile, "utf8")) as Record<string, unknown>;
    config.SERVER_FILE_EXIST_PATH_MAPPINGS = { [`${mount.mnt}/`]: ["/data/"] };
    writeFileSync(world.configFile, JSON.stringify(config, null, 2));
    const { stdout } = await runCli(["--install-dir", world.installDir, "setup", ...setupFlags(world), "--yes"]);
    expect(stdout).toContain(
      `Anchor: the libraries' folders (${mount.mnt}/Movies, ${mount.mnt}/TV, ${mount.mnt}/Music, …) are on the fuse.rclone mount at ${mount.mnt}`,
    );
    expect(stdout).toContain(`set ANCHORS: ${JSON.stringify([`${mount.mnt}/.anchor`])}.`);
    expect((JSON.parse(readFileSync(world.configFile, "utf8")) as { ANCHORS: string[] }).ANCHORS).toEqual([]);
  });
});
