import { afterEach, describe, expect, it } from "vitest";
import { EmbyApiClient } from "../../src/targets/emby/api.js";
import { PlexApiClient } from "../../src/targets/plex/api.js";
import { itemFolderOf, mediaBrowserItemFolders, plexItemFolders } from "../../src/setup/media-items.js";
import { startFakeEmby, type FakeEmby } from "../fakes/emby.js";
import { startFakePlex, type FakePlex } from "../fakes/plex.js";

let plex: FakePlex | undefined;
let emby: FakeEmby | undefined;
afterEach(async () => {
  await plex?.close();
  await emby?.close();
  plex = emby = undefined;
});

describe("the item folders set-up matches", () => {
  it("are the folders right under each location of a Plex library, several locations included", async () => {
    plex = await startFakePlex({ sections: [{ key: "2", title: "TV", type: "show", locations: ["/data/TV", "/data/TV2"] }] });
    plex.addItem("/data/TV/Severance/Season 1/e1.mkv");
    plex.addItem("/data/TV2/Andor/Season 2/e1.mkv");
    const api = new PlexApiClient({ baseUrl: plex.url, token: plex.token });
    const [library] = await api.listLibraries();
    expect((await plexItemFolders(api, library as NonNullable<typeof library>)).sort()).toEqual(["/data/TV/Severance", "/data/TV2/Andor"]);
  });

  it("are an Emby library's items cut to the folder under its location (a movie's file gives its folder)", async () => {
    emby = await startFakeEmby({
      libraries: [
        {
          name: "Movies",
          id: "guid-1",
          collectionType: "movies",
          locations: ["/media/Movies"],
          items: ["/media/Movies/Heat (1995)/Heat (1995).mkv", "/elsewhere/x.mkv"],
        },
      ],
    });
    const api = new EmbyApiClient({ baseUrl: emby.url, token: emby.token, urlKey: "URL", tokenKey: "TOKEN" });
    const [library] = await api.listLibraries();
    expect(await mediaBrowserItemFolders(api, library as NonNullable<typeof library>)).toEqual(["/media/Movies/Heat (1995)"]);
  });

  it("keep Windows paths in their own form", () => {
    expect(itemFolderOf("D:\\Media\\TV\\Show\\S01\\e.mkv", ["D:\\Media\\TV"])).toBe("D:\\Media\\TV\\Show");
    expect(itemFolderOf("/data/TV", ["/data/TV"])).toBeUndefined();
  });
});
