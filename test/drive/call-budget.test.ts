import { afterEach, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness.js";

describe("drive monitor: API call budget", () => {
  let h: Harness;
  afterEach(async () => h.close());

  async function startWithFolders(count: number): Promise<string[]> {
    h = await startHarness();
    const folders: string[] = [];
    h.fake.seed(() => {
      const movies = h.fake.addFolderPath("Media/Movies");
      for (let i = 0; i < count; i++) folders.push(h.fake.addFolder(`Movie ${i} (2000)`, movies));
    });
    return folders;
  }

  it("builds the folder cache on a cold start with one files.list per 1000 folders and no changes.list", async () => {
    await startWithFolders(2500);
    await h.poll();
    expect(h.fake.calls).toEqual({ "files.get": 1, "changes.getStartPageToken": 1, "files.list": 3, "changes.list": 0, "drives.list": 0 });
    expect(h.db.prepare("SELECT count(*) AS n FROM drive_folders").get()).toEqual({ n: 2502 });
  });

  it("reads 2,500 new files with three changes.list calls and no files.get, across pages of 1000", async () => {
    const folders = await startWithFolders(2500);
    await h.poll();
    h.fake.resetCalls();
    folders.forEach((folder, i) => h.fake.addFile(`movie-${i}.mkv`, folder));
    await h.poll();
    expect(h.fake.calls).toEqual({ "files.get": 0, "changes.getStartPageToken": 0, "files.list": 0, "changes.list": 3, "drives.list": 0 });
    expect(new Set(h.sink.folders).size).toBe(2500);
    expect(h.fake.requests.map((r) => r.query.pageSize)).toEqual(["1000", "1000", "1000"]);
  });

  it("asks for only the fields it reads", async () => {
    await startWithFolders(1);
    await h.poll();
    await h.poll();
    const changes = h.fake.requests.find((r) => r.endpoint === "changes.list");
    expect(changes?.query.fields).toBe(
      "nextPageToken,newStartPageToken,changes(changeType,removed,fileId,drive(id,name),file(id,name,mimeType,parents,trashed,driveId))",
    );
    expect(h.fake.requests.find((r) => r.endpoint === "files.list")?.query).toMatchObject({
      q: "mimeType='application/vnd.google-apps.folder' and trashed=false",
      pageSize: "1000",
      fields: "nextPageToken,files(id,name,parents,driveId)",
    });
  });

  it("costs one changes.list per log when nothing changed, and nothing more after a restart", async () => {
    await startWithFolders(10);
    await h.poll();
    await h.restart();
    h.fake.resetCalls();
    await h.poll();
    await h.poll();
    expect(h.fake.calls).toEqual({ "files.get": 0, "changes.getStartPageToken": 0, "files.list": 0, "changes.list": 2, "drives.list": 0 });
  });

  it("fetches an ancestor Drive has not reported yet once, then answers from the cache", async () => {
    await startWithFolders(1);
    await h.poll();
    let late = "";
    h.fake.seed(() => {
      late = h.fake.addFolder("Late (2020)", h.fake.addFolderPath("Media/Movies"));
    });
    h.fake.addFile("late.mkv", late);
    await h.poll();
    h.fake.addFile("late2.mkv", late);
    await h.poll();
    expect(h.sink.folders).toEqual(["/data/Movies/Late (2020)", "/data/Movies/Late (2020)"]);
    expect(h.fake.requests.filter((r) => r.endpoint === "files.get").length).toBe(2); // root at cold start, then "Late (2020)"
  });
});
