import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startHarness, testConfig, type Harness } from "./harness.js";

describe("drive monitor: what gets queued", () => {
  let h: Harness;
  let movies: string;

  beforeEach(async () => {
    h = await startHarness();
    h.fake.seed(() => {
      movies = h.fake.addFolderPath("Media/Movies");
      const old = h.fake.addFolder("Old (1999)", movies);
      h.fake.addFile("old.mkv", old);
    });
    await h.poll(); // first run: records the start token and builds the folder cache
  });
  afterEach(async () => h.close());

  it("queues nothing on the first run for files that already existed", async () => {
    expect(h.sink.requests).toEqual([]);
    const rows = h.db.prepare("SELECT log_key, root_name FROM drive_logs").all();
    expect(rows).toEqual([{ log_key: "my-drive", root_name: "My Drive" }]);
    expect(h.fake.calls["changes.list"]).toBe(0);
  });

  it("queues the mapped folder of a new video that the media server does not have, naming the file (for the file checks)", async () => {
    const folder = h.fake.addFolder("X (2020)", movies);
    h.fake.addFile("x.mkv", folder);
    await h.poll();
    expect(h.sink.requests).toEqual([
      { folder: "/data/Movies/X (2020)", source: "drive", event: "DriveChange", files: ["/data/Movies/X (2020)/x.mkv"] },
    ]);
  });

  it("queues nothing for a file already in the media server's database", async () => {
    const folder = h.fake.addFolder("Known (2001)", movies);
    h.fake.addFile("known.mkv", folder);
    h.inPlex.add("/data/Movies/Known (2001)/known.mkv");
    await h.poll();
    expect(h.sink.requests).toEqual([]);
  });

  it("queues nothing for a .txt, a file outside FILE_PATHS, a folder or a trashed file", async () => {
    const folder = h.fake.addFolder("Y (2021)", movies);
    h.fake.addFile("notes.txt", folder);
    h.fake.addFile("home.mkv", h.fake.addFolderPath("Personal/Videos"));
    h.fake.addFolder("Empty (2022)", movies);
    const trashed = h.fake.addFile("gone.mkv", folder);
    h.fake.trash(trashed);
    await h.poll();
    expect(h.sink.requests).toEqual([]);
  });

  it("queues nothing for a file inside a trashed folder or one deleted for good", async () => {
    const folder = h.fake.addFolder("Z (2022)", movies);
    h.fake.addFile("z.mkv", folder);
    const other = h.fake.addFile("w.mkv", movies);
    h.fake.trash(folder);
    h.fake.remove(other);
    await h.poll();
    expect(h.sink.requests).toEqual([]);
  });

  it("queues the new path of a renamed file and of a moved file", async () => {
    let first = "";
    let second = "";
    let target = "";
    h.fake.seed(() => {
      const a = h.fake.addFolder("A (2010)", movies);
      first = h.fake.addFile("a.mkv", a);
      second = h.fake.addFile("b.mkv", a);
      target = h.fake.addFolder("B (2011)", movies);
    });
    h.inPlex.add("/data/Movies/A (2010)/a.mkv").add("/data/Movies/A (2010)/b.mkv");
    h.fake.rename(first, "a.renamed.mkv");
    h.fake.move(second, target);
    await h.poll();
    expect(h.sink.folders.sort()).toEqual(["/data/Movies/A (2010)", "/data/Movies/B (2011)"]);
  });

  it("follows a renamed folder: a file added under it later gets the new name", async () => {
    const folder = h.fake.addFolder("Typo (2020)", movies);
    await h.poll();
    h.fake.rename(folder, "Fixed (2020)");
    h.fake.addFile("f.mkv", folder);
    await h.poll();
    expect(h.sink.folders).toEqual(["/data/Movies/Fixed (2020)"]);
  });

  it("resolves a file whose folder appeared in the same poll without calling files.get", async () => {
    const show = h.fake.addFolderPath("Media/TV/Show/Season 01");
    h.fake.addFile("Show.S01E01.mkv", show);
    await h.poll();
    expect(h.sink.folders).toEqual(["/data/TV/Show/Season 01"]);
    expect(h.fake.calls["files.get"]).toBe(1); // the My Drive root, at the first run only
  });

  it("queues one scan for several new files in the same folder", async () => {
    const folder = h.fake.addFolder("Pack (2020)", movies);
    for (const name of ["a.mkv", "b.mkv", "c.mp4"]) h.fake.addFile(name, folder);
    await h.poll();
    expect(h.sink.folders).toEqual(["/data/Movies/Pack (2020)"]);
  });
});

describe("drive monitor: paths the mapper cannot place", () => {
  it("logs and skips a passing file that SERVER_PATH_MAPPINGS does not cover (empty FILE_PATHS lets every path through)", async () => {
    const h = await startHarness(testConfig({ ALLOWED: { ...testConfig().CLOUD.ALLOWED, FILE_PATHS: [] } }));
    try {
      await h.poll();
      h.fake.addFile("clip.mkv", h.fake.addFolderPath("Elsewhere"));
      h.fake.addFile("m.mkv", h.fake.addFolderPath("Media/Movies/M (2000)"));
      await h.poll();
      expect(h.sink.folders).toEqual(["/data/Movies/M (2000)"]);
      expect(h.logs.messages(40)).toContain("Drive file skipped: it has no usable media-server path");
      expect(h.logs.messages(40)).toContain("CLOUD.ALLOWED.FILE_PATHS is empty: files anywhere on the watched drives are considered");
    } finally {
      await h.close();
    }
  });
});

describe("drive monitor: control characters in Drive names", () => {
  it("skips a file whose name or folder name holds one, with a warning naming its position, and queues the rest", async () => {
    const h = await startHarness();
    try {
      await h.poll();
      const movies = h.fake.addFolderPath("Media/Movies");
      h.fake.addFile("bad\nname.mkv", h.fake.addFolder("A (2020)", movies));
      h.fake.addFile("fine.mkv", h.fake.addFolder("B\u0085 (2021)", movies));
      h.fake.addFile("good.mkv", h.fake.addFolder("C (2022)", movies));
      await h.poll();
      expect(h.sink.folders).toEqual(["/data/Movies/C (2022)"]);
      const skipped = h.logs.lines.filter((l) => l.msg === "Drive file skipped: it has no usable media-server path");
      expect(skipped.map((l) => l.error)).toEqual([
        expect.stringMatching(/contains a line feed \(U\+000A\) at character 35$/),
        expect.stringMatching(/contains a control character \(U\+0085\) at character 24$/),
      ]);
    } finally {
      await h.close();
    }
  });
});

describe("drive monitor: with the extension and MIME filters off", () => {
  it("still queues nothing for Google Docs and shortcuts, which have no file on the mount", async () => {
    const h = await startHarness(testConfig({ ALLOWED: { ...testConfig().CLOUD.ALLOWED, FILE_EXTENSIONS: false, MIME_TYPES: false } }));
    try {
      await h.poll();
      const folder = h.fake.addFolderPath("Media/Movies/D (2020)");
      h.fake.addFile("link.mkv", folder, "application/vnd.google-apps.shortcut");
      h.fake.addFile("Notes", folder, "application/vnd.google-apps.document");
      await h.poll();
      expect(h.sink.requests).toEqual([]);
      h.fake.addFile("notes.txt", folder);
      await h.poll();
      expect(h.sink.folders).toEqual(["/data/Movies/D (2020)"]);
    } finally {
      await h.close();
    }
  });
});

describe("drive monitor: SHOW_CACHE_LOGS", () => {
  it("logs folders as they join the cache only when asked to", async () => {
    for (const show of [true, false]) {
      const h = await startHarness(testConfig({ SHOW_CACHE_LOGS: show }));
      try {
        await h.poll();
        h.fake.addFolderPath("Media/Movies/C (2020)");
        await h.poll();
        const added = h.logs.lines.filter((l) => l.msg === "Drive folder cache: added folder").map((l) => l.name);
        expect(added).toEqual(show ? ["Media", "Movies", "C (2020)"] : []);
      } finally {
        await h.close();
      }
    }
  });
});
