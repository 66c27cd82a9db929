import { describe, expect, it } from "vitest";
import { RemoteNames } from "../../src/drive/remote-view.js";
import { silentLogger } from "../../src/lib/logger.js";
import { createNameCipher } from "../../src/rclone/crypt/index.js";
import { buildView } from "../../src/rclone/monitor-remote.js";
import { obscurePassword } from "../../src/rclone/obscure.js";

const CRYPT = { type: "crypt", remote: "gdrive:encrypt", password: obscurePassword("pw") };
const cipher = createNameCipher({
  password: "pw",
  filenameEncryption: "standard",
  filenameEncoding: "base32",
  directoryNameEncryption: true,
});
const enc = (plain: string) => cipher.encryptPath(plain, true);
const remotes = (drive: Record<string, string>, crypt: Record<string, string> = CRYPT) =>
  new Map([
    ["gdrive", { type: "drive", ...drive }],
    ["gcrypt", crypt],
  ]);

/** The drive's root is "My Drive"; folder "0AStuff" sits at "My Drive/Stuff". */
const pathOf = async (id: string | undefined) => (id === undefined ? "My Drive" : id === "0AStuff" ? "My Drive/Stuff" : undefined);

describe("reading Drive paths through an rclone remote", () => {
  it("watches the remote's shared drive only, and My Drive only for a remote without team_drive", () => {
    const shared = buildView(
      { name: "gdrive", section: { type: "drive", team_drive: "0ATeam" }, folder: [], crypt: undefined },
      {},
      new Map(),
    );
    expect(shared.logs).toEqual({ myDrive: false, sharedDrives: ["0ATeam"], namedBy: `rclone remote "gdrive"'s team_drive` });
    const mine = buildView({ name: "gdrive", section: { type: "drive" }, folder: ["Media"], crypt: undefined }, {}, new Map());
    expect(mine.logs).toEqual({ myDrive: true, sharedDrives: [] });
  });

  it("decodes under the crypt folder below root_folder_id, keeps the Drive form, and skips what lies outside", async () => {
    const all = remotes({ root_folder_id: "0AStuff" });
    const view = buildView(
      { name: "gdrive", section: all.get("gdrive")!, folder: ["encrypt"], crypt: { name: "gcrypt", section: CRYPT, within: [] } },
      {},
      all,
    );
    const { read } = await new RemoteNames(view, silentLogger()).reader(pathOf);
    expect(read(`My Drive/Stuff/encrypt/${enc("Media/TV/Show/x.mkv")}`)).toEqual({
      kind: "decoded",
      path: "My Drive/Stuff/encrypt/Media/TV/Show/x.mkv",
    });
    expect(read(`My Drive/encrypt/${enc("Media/x.mkv")}`)).toEqual({ kind: "outside" });
    expect(read("My Drive/Stuff/elsewhere/x.mkv")).toEqual({ kind: "outside" });
    expect(read(`My Drive/Stuff/encrypt/${enc("Media")}/not-ours.mkv`)).toEqual({ kind: "undecodable", name: "not-ours.mkv" });
  });

  it("keeps to the crypt remote's own path (gcrypt:Media/TV), compared on decoded names", async () => {
    const all = remotes({});
    const view = buildView(
      {
        name: "gdrive",
        section: all.get("gdrive")!,
        folder: ["encrypt"],
        crypt: { name: "gcrypt", section: CRYPT, within: ["Media", "TV"] },
      },
      {},
      all,
    );
    const { read } = await new RemoteNames(view, silentLogger()).reader(pathOf);
    expect(read(`My Drive/encrypt/${enc("Media/TV/Show/x.mkv")}`)).toEqual({
      kind: "decoded",
      path: "My Drive/encrypt/Media/TV/Show/x.mkv",
    });
    expect(read(`My Drive/encrypt/${enc("Media/Movies/M/x.mkv")}`)).toEqual({ kind: "outside" });
  });

  it("skips everything when the remote's root_folder_id is not on the drive", async () => {
    const all = remotes({ root_folder_id: "0AGone" });
    const view = buildView({ name: "gdrive", section: all.get("gdrive")!, folder: [], crypt: undefined }, {}, all);
    const { read } = await new RemoteNames(view, silentLogger()).reader(pathOf);
    expect(read("My Drive/Media/x.mkv")).toEqual({ kind: "outside" });
  });

  it("reads plain directory names when directory_name_encryption is false (CRYPT_MAPPINGS, no folder restriction)", async () => {
    const plainDirs = { ...CRYPT, directory_name_encryption: "false" };
    const view = buildView(undefined, { "My Drive/encrypt/": ["gcrypt:"] }, remotes({}, plainDirs));
    const fileCipher = createNameCipher({
      password: "pw",
      filenameEncryption: "standard",
      filenameEncoding: "base32",
      directoryNameEncryption: false,
    });
    const { read } = await new RemoteNames(view, silentLogger()).reader(pathOf);
    expect(read(`My Drive/encrypt/Media/TV/${fileCipher.encryptSegment("x.mkv", false)}`)).toEqual({
      kind: "decoded",
      path: "My Drive/encrypt/Media/TV/x.mkv",
    });
    expect(read("My Drive/Media/TV/y.mkv")).toEqual({ kind: "plain", path: "My Drive/Media/TV/y.mkv" });
  });

  it("decodes a prepared page's names in one batch per kind, folder names once across pages, and still skips a bad name", async () => {
    const all = remotes({});
    const view = buildView(
      { name: "gdrive", section: all.get("gdrive")!, folder: ["encrypt"], crypt: { name: "gcrypt", section: CRYPT, within: [] } },
      {},
      all,
    );
    const inner = view.crypt[0]!.decoder;
    const calls: string[] = [];
    const counted = {
      decryptSegment: (name: string, isDir: boolean) => {
        calls.push(`one ${isDir ? "dir" : "file"}`);
        return inner.decryptSegment(name, isDir);
      },
      decryptSegments: (names: readonly string[], isDir: boolean) => {
        calls.push(`${names.length} ${isDir ? "dirs" : "files"}`);
        return inner.decryptSegments(names, isDir);
      },
    };
    const names = new RemoteNames({ ...view, crypt: [{ ...view.crypt[0]!, decoder: counted }] }, silentLogger());
    const page = ["e01", "e02", "e03"].map((e) => `My Drive/encrypt/${enc(`Media/TV/Show/${e}.mkv`)}`);
    const bad = `My Drive/encrypt/${enc("Media/TV/Show")}/not-ours.mkv`;
    const first = await names.reader(pathOf);
    first.prepare([...page, bad]);
    expect(calls).toEqual(["3 dirs", "4 files"]); // Media, TV, Show: the bad path shares them
    expect(page.map(first.read)).toEqual(
      ["e01", "e02", "e03"].map((e) => ({ kind: "decoded", path: `My Drive/encrypt/Media/TV/Show/${e}.mkv` })),
    );
    expect(first.read(bad)).toEqual({ kind: "undecodable", name: "not-ours.mkv" });
    expect(calls).toHaveLength(2);

    const second = await names.reader(pathOf);
    second.prepare([`My Drive/encrypt/${enc("Media/TV/Show/e04.mkv")}`]);
    expect(calls.slice(2)).toEqual(["0 dirs", "1 files"]);
  });
});
