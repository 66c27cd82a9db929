import { afterEach, describe, expect, it } from "vitest";
import { postForm, startTestService, type TestService } from "../helpers/service.js";

let t: TestService | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

/** Plex on Windows; with `mappings`, Sonarr on Linux sees the same share as /tv. */
const start = (mappings: Record<string, string[]> = {}) =>
  startTestService(
    { SERVER_SCAN_DELAY: 3600, SERVER_PATH_MAPPINGS: mappings },
    { sections: [{ key: "2", title: "TV", type: "show", locations: ["D:\\TV"] }] },
  );

/** Until the service has read Plex's libraries, a path in none of them is queued (on C:); after, it is refused with 422. */
async function librariesKnown(): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if ((await postForm(`${t?.base}`, { eventType: "Manual", filepath: "C:\\Elsewhere\\" })).status === 422) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("the service never read the libraries");
}

async function pendingFolders(): Promise<string[]> {
  const queue = (await (await fetch(`${t?.base}/api/queue`)).json()) as { pending: Array<{ folder: string }> };
  return queue.pending.map((s) => s.folder);
}

describe("Windows media-server paths", () => {
  it("coalesces D:\\TV and d:\\tv spellings of one folder into one scan, spelled as the library is", async () => {
    t = await start();
    await librariesKnown();
    const first = await postForm(t.base, { eventType: "Manual", filepath: "d:\\tv\\Show\\" });
    expect(first.status).toBe(202);
    expect(JSON.parse(first.text).queued).toEqual(["D:\\TV\\Show"]);
    const second = await postForm(t.base, { eventType: "Manual", filepath: "D:\\TV\\Show\\Season 1\\e.mkv" });
    expect(JSON.parse(second.text).covered).toEqual(["D:\\TV\\Show\\Season 1"]);
    const third = await postForm(t.base, { eventType: "Manual", filepath: "D:/TV/Show/" });
    expect(JSON.parse(third.text).queued).toEqual(["D:\\TV\\Show"]);
    expect((await pendingFolders()).filter((f) => f.startsWith("D:"))).toEqual(["D:\\TV\\Show"]);
  });

  it("answers 400, not 500, when a mapped name hides '..' segments (Show\\..\\..\\x)", async () => {
    t = await start({ "D:\\TV\\": ["/tv/"] });
    const res = await postForm(t.base, { eventType: "Manual", filepath: "/tv/Show\\..\\..\\x/e.mkv" });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error).toContain("'..' segment");
    expect(await pendingFolders()).toEqual([]);
  });
});
