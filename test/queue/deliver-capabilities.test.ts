import { describe, expect, it } from "vitest";
import type { Library, Target } from "../../src/domain.js";
import { deliverFolder } from "../../src/delivery/deliver.js";
import { deliveryTargetOf } from "./helpers.js";

const HD: Library = { id: "1", title: "Movies", type: "movie", locations: ["/data/Movies"] };
const UHD: Library = { id: "2", title: "Movies 4K", type: "movie", locations: ["/data/Movies", "/data/4K"] };

function target(name: string, scansPerLibrary: boolean): Target & { calls: string[] } {
  const calls: string[] = [];
  return {
    name,
    scansPerLibrary,
    calls,
    listLibraries: async () => [HD, UHD],
    scan: async (folder, library) => void calls.push(`${library.title}: ${folder}`),
  };
}

describe("delivery reads the target's capabilities, not its name", () => {
  it("scans a folder in each library holding it when the target scans per library, whatever it is called", async () => {
    const perLibrary = target("jf", true);
    const outcome = await deliverFolder(deliveryTargetOf(perLibrary), { folder: "/data/Movies/Arrival (2016)", files: [] });
    expect(outcome).toEqual({ kind: "done", libraries: [HD, UHD].map(({ id, title }) => ({ id, title })) });
    expect(perLibrary.calls).toEqual(["Movies: /data/Movies/Arrival (2016)", "Movies 4K: /data/Movies/Arrival (2016)"]);
  });

  it("makes one call for the folder when the target does not, even one named plex", async () => {
    const once = target("plex", false);
    const outcome = await deliverFolder(deliveryTargetOf(once), { folder: "/data/Movies/Arrival (2016)", files: [] });
    expect(outcome.kind).toBe("done");
    expect(once.calls).toEqual(["Movies: /data/Movies/Arrival (2016)"]);
  });
});
