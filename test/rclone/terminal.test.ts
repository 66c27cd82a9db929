import { readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { encryptConfig, isEncryptedConfig } from "../../src/rclone/config-crypt.js";
import { startFakeSharedDrives, type FakeDrive } from "../fakes/drive.js";
import { hasPython, runInPty, scanarrCommand, type PtyStep } from "./pty.js";
import { dumpConfig, hasRclone, makeTempDir } from "./rclone-cli.js";

const TOKEN = '{"access_token":"ya29.FAKE","token_type":"Bearer","refresh_token":"1//FAKE","expiry":"2030-01-01T00:00:00.123456789Z"}';
const UP_TO_TOKEN: PtyStep[] = [
  ["n/s/q>", "n"],
  ["name>", "gdrive"],
  ["Storage>", "drive"],
  ["client_id>", ""],
  ["client_secret>", ""],
  ["scope>", "1"],
  ["root_folder_id>", ""],
  ["service_account_file>", ""],
  ["y/n>", "n"],
  ["y/n>", "n"],
];

let api: FakeDrive | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

describe.skipIf(!hasPython || !hasRclone)("remote create in a terminal", () => {
  it("completes the headless dialogue with a pasted marker block, and rclone reads the file", async () => {
    const file = path.join(makeTempDir(), "rclone.conf");
    const paste = `Paste the following into your remote machine --->\r${TOKEN}\r<---End paste`;
    const { output, status } = await runInPty(
      [...UP_TO_TOKEN, ["config_token>", paste], ["y/n>", "n"], ["y/e/d>", "y"], ["y/n>", "n"], ["e/n/d/r/c/s/q>", "q"]],
      scanarrCommand(["--rclone-config", file]),
    );
    expect(status, output).toBe(0);
    expect(output).toContain('rclone authorize "drive" "eyJzY29wZSI6ImRyaXZlIn0"');
    expect(dumpConfig(file)).toEqual({ gdrive: { type: "drive", scope: "drive", token: TOKEN, team_drive: "" } });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("picks a shared drive from the loopback Drive API by its number", async () => {
    api = await startFakeSharedDrives(
      [
        { id: "0AAmovies", name: "Movies" },
        { id: "0AAtv", name: "TV" },
      ],
      "ya29.FAKE",
    );
    const file = path.join(makeTempDir(), "rclone.conf");
    const { output, status } = await runInPty(
      [
        ...UP_TO_TOKEN,
        ["config_token>", TOKEN],
        ["y/n>", "y"],
        ["config_team_drive>", "2"],
        ["y/e/d>", "y"],
        ["y/n>", "n"],
        ["e/n/d/r/c/s/q>", "q"],
      ],
      scanarrCommand(["--rclone-config", file], api.url),
    );
    expect(status, output).toBe(0);
    expect(output).toContain(" 2 / TV\n   \\ (0AAtv)");
    expect(dumpConfig(file).gdrive).toEqual({ type: "drive", scope: "drive", token: TOKEN, team_drive: "0AAtv", root_folder_id: "" });
  });

  it("skips authorization for a service-account file and writes its path", async () => {
    const dir = makeTempDir();
    const file = path.join(dir, "rclone.conf");
    writeFileSync(path.join(dir, "sa.json"), "{}");
    const steps: PtyStep[] = [
      ...UP_TO_TOKEN.slice(0, 7),
      ["service_account_file>", "${RCLONE_CONFIG_DIR}/sa.json"],
      ["y/n>", "n"],
      ["y/n>", "n"],
      ["y/e/d>", "y"],
      ["y/n>", "n"],
      ["e/n/d/r/c/s/q>", "q"],
    ];
    const { output, status } = await runInPty(steps, scanarrCommand(["--rclone-config", file]));
    expect(status, output).toBe(0);
    expect(output).not.toContain("config_token>");
    expect(dumpConfig(file).gdrive).toEqual({
      type: "drive",
      scope: "drive",
      service_account_file: "${RCLONE_CONFIG_DIR}/sa.json",
      team_drive: "",
    });
  });

  it("exits 130 on Ctrl-C and leaves the existing file untouched", async () => {
    const file = path.join(makeTempDir(), "rclone.conf");
    const before = "# mine\n[media]\ntype = alias\nremote = /srv\n";
    writeFileSync(file, before, { mode: 0o644 });
    const { output, status } = await runInPty(
      [
        ["e/n/d/r/c/s/q>", "n"],
        ["name>", "gdrive"],
        ["Storage>", null],
      ],
      scanarrCommand(["--rclone-config", file]),
    );
    expect(status, output).toBe(130);
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  it("opens an encrypted file with RCLONE_CONFIG_PASS, keeps it encrypted and rclone still reads it", async () => {
    const file = path.join(makeTempDir(), "rclone.conf");
    writeFileSync(file, encryptConfig("[media]\ntype = alias\nremote = /srv\n\n", "pass word"), { mode: 0o640 });
    const { output, status } = await runInPty(
      [],
      scanarrCommand(["--rclone-config", file, "--name", "gd", "--non-interactive", "--token", TOKEN]),
      { RCLONE_CONFIG_PASS: "pass word" },
    );
    expect(status, output).toBe(0);
    expect(isEncryptedConfig(readFileSync(file, "utf8"))).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(dumpConfig(file, { RCLONE_CONFIG_PASS: "pass word" })).toEqual({
      media: { type: "alias", remote: "/srv" },
      gd: { type: "drive", scope: "drive", token: TOKEN, team_drive: "" },
    });
  });
});
