import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TargetAuthError, TargetFatalError, TargetUnavailableError } from "../../../src/domain.js";
import { PlexApiClient } from "../../../src/targets/plex/api.js";
import { fetchWithoutAccept } from "./without-accept.js";
import { startFakePlex, type FakePlex } from "../../fakes/plex.js";
import { allowViolations } from "../../fakes/spec/violations.js";

let plex: FakePlex;
let client: PlexApiClient;

beforeEach(async () => {
  plex = await startFakePlex({ refreshDuration: 1 });
  client = new PlexApiClient({ baseUrl: plex.url, token: plex.token, timeoutMs: 2_000 });
});

afterEach(async () => {
  await plex.close();
});

describe("PlexApiClient.listSections", () => {
  it("reads each section's refreshing state as a boolean, as 0/1 and from XML alike", async () => {
    await client.refresh("2", "/data/TV-Shows/Show");
    expect((await client.listSections()).map((s) => [s.id, s.refreshing])).toEqual([
      ["1", false],
      ["2", true],
      ["3", false],
      ["5", false],
    ]);
    await client.refresh("5", "/data/Music/Band");
    const xml = new PlexApiClient({ baseUrl: plex.url, token: plex.token, fetch: fetchWithoutAccept });
    expect((await xml.listSections()).find((s) => s.id === "5")?.refreshing).toBe(true);
    await plex.close();
    // 0/1 in JSON is no answer the description (boolean) or apis.md §1.3 knows of; kept to pin scanarr's tolerance of it.
    allowViolations(/refreshing must be boolean/);
    plex = await startFakePlex({ refreshDuration: 1, refreshingAs: "number" });
    const numeric = new PlexApiClient({ baseUrl: plex.url, token: plex.token });
    await numeric.refresh("1", "/data/Movies/X");
    expect((await numeric.listSections()).find((s) => s.id === "1")).toMatchObject({ refreshing: true, locations: ["/data/Movies"] });
  });
});

describe("item and trash calls", () => {
  it("analyzes and refreshes one item with PUT, sending the token in the header only", async () => {
    const item = plex.addItem("/data/Movies/Sintel (2010)/Sintel.mkv");
    await client.analyzeItem(item.ratingKey);
    await client.refreshItem(item.ratingKey);
    expect([plex.analyzed, plex.itemRefreshes]).toEqual([[item.ratingKey], [item.ratingKey]]);
    expect(plex.requests.map((r) => [r.method, r.url, r.tokenIn])).toEqual([
      ["PUT", `/library/metadata/${item.ratingKey}/analyze`, "header"],
      ["PUT", `/library/metadata/${item.ratingKey}/refresh`, "header"],
    ]);
  });

  it("refuses an item id that is not a number before calling Plex", async () => {
    await expect(client.analyzeItem("12/../../library/sections/1/emptyTrash")).rejects.toBeInstanceOf(TargetFatalError);
    expect(plex.requests).toEqual([]);
  });

  it("answers TargetAuthError saying an admin token is needed when a shared user's token is used", async () => {
    const item = plex.addItem("/data/Movies/X.mkv");
    const shared = new PlexApiClient({ baseUrl: plex.url, token: plex.sharedToken });
    for (const attempt of [
      () => shared.analyzeItem(item.ratingKey),
      () => shared.emptyTrash("1"),
      () => shared.refresh("1", "/data/Movies"),
    ]) {
      const error = await attempt().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TargetAuthError);
      expect((error as Error).message).toContain("admin token");
      expect((error as Error).message).not.toContain(plex.sharedToken);
    }
    expect(plex.emptiedTrash).toEqual([]);
  });

  it("counts a section's trashed items from totalSize and empties the trash", async () => {
    plex.setRefreshDuration(0);
    for (const name of ["a", "b", "c"]) plex.addItem(`/data/TV-Shows/Show/Season 1/${name}.mkv`);
    plex.removeFile("/data/TV-Shows/Show/Season 1/a.mkv");
    plex.removeFile("/data/TV-Shows/Show/Season 1/b.mkv");
    await client.refresh("2", "/data/TV-Shows/Show/Season 1");
    expect(await client.countTrash("2", "show")).toBe(2);
    expect(plex.requests.at(-1)?.url).toBe("/library/sections/2/all?trash=1&type=4&X-Plex-Container-Start=0&X-Plex-Container-Size=0");
    await client.emptyTrash("2");
    expect(await client.countTrash("2", "show")).toBe(0);
  });

  it("never reads a trash count from an answer without totalSize", async () => {
    plex.setMode(404, "list");
    await expect(client.countTrash("1", "movie")).rejects.toBeInstanceOf(TargetUnavailableError);
  });
});

describe("PlexApiClient.listFolder", () => {
  it("lists sub-folders and items with their files, in JSON and in XML", async () => {
    plex.addItem("/data/Movies/Sintel (2010)/Sintel.mkv");
    const xml = new PlexApiClient({ baseUrl: plex.url, token: plex.token, fetch: fetchWithoutAccept });
    for (const api of [client, xml]) {
      const root = await api.listFolder("1");
      expect(root.items).toEqual([]);
      expect(root.folders.map((f) => f.title)).toEqual(["Sintel (2010)"]);
      const inner = await api.listFolder("1", root.folders[0]?.key);
      expect(inner.items).toEqual([
        {
          ratingKey: expect.stringMatching(/^\d+$/),
          type: "movie",
          files: [{ file: "/data/Movies/Sintel (2010)/Sintel.mkv", trashed: false }],
        },
      ]);
    }
  });

  it("does not follow a folder key outside the section's folder view", async () => {
    await expect(client.listFolder("1", "/library/sections/2/folder?parent=1")).rejects.toBeInstanceOf(TargetFatalError);
    await expect(client.listFolder("1", "http://elsewhere/x")).rejects.toBeInstanceOf(TargetFatalError);
    expect(plex.requests).toEqual([]);
  });
});
