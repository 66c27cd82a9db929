import { describe, expect, it } from "vitest";
import type { Library, Target } from "../../src/domain.js";
import { deliverFolder } from "../../src/delivery/deliver.js";
import { deliveryTargetOf } from "./helpers.js";

const HD: Library = { id: "1", title: "Movies", type: "movie", locations: ["/data/Movies"] };
const UHD: Library = { id: "2", title: "Movies 4K", type: "movie", locations: ["/data/Movies"] };
const FOLDER = "/data/Movies/Arrival (2016)";
const SUBTITLE = `${FOLDER}/Arrival (2016).en.srt`;

/** A target with the libraries above; `known` maps a library id to the files it holds items for (none: it cannot refresh). */
function target(known?: Record<string, string[]>): Target & { calls: string[] } {
  const calls: string[] = [];
  const base: Target & { calls: string[] } = {
    name: "t",
    scansPerLibrary: true,
    calls,
    listLibraries: async () => [HD, UHD],
    scan: async (folder, library) => void calls.push(`scan ${library.id} ${folder}`),
  };
  if (!known) return base;
  return {
    ...base,
    refreshItems: async (files, library) => {
      const held = files.filter((f) => known[library.id]?.includes(f));
      for (const file of held) calls.push(`refresh ${library.id} ${file}`);
      return { refreshed: held.length, unknown: files.filter((f) => !held.includes(f)) };
    },
  };
}

const sidecarsOnly = { folder: FOLDER, files: [SUBTITLE], refresh: [SUBTITLE], scanFolder: false };

describe("delivering a refresh", () => {
  it("refreshes the items and scans nothing when only sidecars were named and the server holds them", async () => {
    const t = target({ "1": [SUBTITLE], "2": [SUBTITLE] });
    const outcome = await deliverFolder(deliveryTargetOf(t), sidecarsOnly);
    expect(outcome).toMatchObject({ kind: "done", itemsOnly: true, refreshed: 2 });
    expect(t.calls).toEqual([`refresh 1 ${SUBTITLE}`, `refresh 2 ${SUBTITLE}`]);
  });

  it("scans the folder when the server lacks an item, without refreshing the known ones again", async () => {
    const other = `${FOLDER}/Arrival (2016) - Extended.en.srt`;
    const t = target({ "1": [SUBTITLE] });
    const outcome = await deliverFolder(deliveryTargetOf(t), { ...sidecarsOnly, files: [SUBTITLE, other], refresh: [SUBTITLE, other] });
    expect(outcome).toMatchObject({ kind: "done", refreshed: 1 });
    expect(outcome).not.toHaveProperty("itemsOnly");
    expect(t.calls).toEqual([`refresh 1 ${SUBTITLE}`, `scan 1 ${FOLDER}`, `scan 2 ${FOLDER}`]);
  });

  it("scans the folder of a target that cannot refresh items (autoscan, Plex Media Scanner)", async () => {
    const t = target();
    expect(await deliverFolder(deliveryTargetOf(t), sidecarsOnly)).toMatchObject({ kind: "done" });
    expect(t.calls).toEqual([`scan 1 ${FOLDER}`, `scan 2 ${FOLDER}`]);
  });

  it("scans, then refreshes, a file replaced in place; not before the confirmation that will refresh it", async () => {
    const video = `${FOLDER}/Arrival (2016).mkv`;
    const job = { folder: FOLDER, files: [video], refresh: [video], scanFolder: true };
    const now = target({ "1": [video] });
    await deliverFolder(deliveryTargetOf(now), job);
    expect(now.calls).toEqual([`scan 1 ${FOLDER}`, `scan 2 ${FOLDER}`, `refresh 1 ${video}`]);
    const later = target({ "1": [video] });
    await deliverFolder(deliveryTargetOf(later), job, undefined, { refreshAfterConfirmation: true });
    expect(later.calls).toEqual([`scan 1 ${FOLDER}`, `scan 2 ${FOLDER}`]);
  });
});
