import { mkdirSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createRcClient } from "../../src/rclone/rc-client.js";
import { RcAuthError, RcCommandError, RcDirError, RcUnreachableError } from "../../src/rclone/rc-errors.js";
import { recordingLogger } from "../helpers/log-lines.js";
import { canMount, canRunRclone, cleanupRclone, makeTempDir, startRcloneRcd, startRcloneServe } from "../helpers/rclone-mount.js";

afterEach(cleanupRclone);

function mediaTree(): string {
  const dir = makeTempDir("scanarr-rc-");
  mkdirSync(path.join(dir, "Media", "TV", "Show"), { recursive: true });
  return dir;
}

/** A port nothing listens on: bound, read, released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe.skipIf(!canRunRclone)("rclone remote-control client against a real rclone serve --rc", () => {
  it("lists the one VFS and refreshes folders, recursive sent as the string rclone accepts", async () => {
    const dir = mediaTree();
    const rclone = await startRcloneServe(dir);
    const client = createRcClient({ url: rclone.rcUrl, logger: recordingLogger().logger });
    expect(await client.listVfs()).toEqual([dir]);
    const report = await client.refresh(["Media/TV", "/Media/TV/Show/"], { recursive: true });
    expect(report).toEqual({ refreshed: ["Media/TV", "Media/TV/Show"], failed: [] });
    expect(client.state).toBe("ok");
  });

  it("reports a missing folder per entry although rclone answers 200", async () => {
    const rclone = await startRcloneServe(mediaTree());
    const client = createRcClient({ url: rclone.rcUrl, logger: recordingLogger().logger });
    const report = await client.refresh(["Media/TV", "Media/Nope", "Other/Deep"]);
    expect(report.refreshed).toEqual(["Media/TV"]);
    expect(report.failed.map((f) => [f.dir, f.reason, f.missing])).toEqual([
      ["Media/Nope", "file does not exist", true],
      ["Other/Deep", "file does not exist", true],
    ]);
    expect(report.failed[0]).toBeInstanceOf(RcDirError);
  });

  it("refreshes the root with a call that names no folder, apart from the named ones", async () => {
    const rclone = await startRcloneServe(mediaTree());
    const client = createRcClient({ url: rclone.rcUrl, logger: recordingLogger().logger });
    expect(await client.refresh(["", "Media"])).toEqual({ refreshed: ["Media", ""], failed: [] });
  });

  it("authenticates with RC_USER/RC_PASS, also when they are written into the URL", async () => {
    const rclone = await startRcloneServe(mediaTree(), { auth: { user: "scan", pass: "s3cret-pass" } });
    const withOptions = createRcClient({ url: rclone.rcUrl, user: "scan", pass: "s3cret-pass", logger: recordingLogger().logger });
    expect((await withOptions.refresh(["Media"])).refreshed).toEqual(["Media"]);
    const inUrl = createRcClient({ url: rclone.rcUrl.replace("http://", "http://scan:s3cret-pass@"), logger: recordingLogger().logger });
    expect(await inUrl.listVfs()).toHaveLength(1);
  });

  it("raises RcAuthError for missing or wrong credentials, logs it once and never logs the password", async () => {
    const rclone = await startRcloneServe(mediaTree(), { auth: { user: "scan", pass: "s3cret-pass" } });
    const { logger, lines, at } = recordingLogger();
    const client = createRcClient({ url: rclone.rcUrl, user: "scan", pass: "wrong-pass", logger });
    await expect(client.refresh(["Media"])).rejects.toBeInstanceOf(RcAuthError);
    const error = await client.listVfs().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RcAuthError);
    expect(String(error)).not.toContain("wrong-pass");
    expect(client.state).toBe("unauthorized");
    expect(at("error")).toEqual(["rclone remote control refused our credentials: check RC_USER and RC_PASS"]);
    const anonymous = createRcClient({ url: rclone.rcUrl, logger });
    await expect(anonymous.listVfs()).rejects.toBeInstanceOf(RcAuthError);
    expect(lines.every((l) => !l.raw.includes("wrong-pass"))).toBe(true);
  });

  it("surfaces rclone's own error for a refused command", async () => {
    const rclone = await startRcloneServe(mediaTree());
    const client = createRcClient({ url: rclone.rcUrl, logger: recordingLogger().logger });
    const error = await client.refresh(["Media"], { fs: "no-such-vfs:" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RcCommandError);
    expect((error as RcCommandError).message).toMatch(/no VFS found with name "no-such-vfs:"/);
    expect(client.state).toBe("ok");
  });
});

describe("rclone remote-control client when rclone is down", () => {
  it("raises RcUnreachableError, logs the outage once and the recovery once", async () => {
    const port = await closedPort();
    const { logger, at } = recordingLogger();
    const client = createRcClient({ url: `http://127.0.0.1:${port}`, logger, timeoutMs: 2_000 });
    await expect(client.listVfs()).rejects.toBeInstanceOf(RcUnreachableError);
    await expect(client.refresh(["Media"])).rejects.toThrow(/unreachable: .*ECONNREFUSED/);
    expect(client.state).toBe("unreachable");
    expect(at("warn")).toEqual(["rclone remote control is unreachable; file checks go on without refresh"]);
  });

  it.skipIf(!canRunRclone)("logs once when it answers again, after the outage", async () => {
    const port = await closedPort();
    const { logger, at } = recordingLogger();
    const client = createRcClient({ url: `http://127.0.0.1:${port}`, logger });
    await expect(client.listVfs()).rejects.toBeInstanceOf(RcUnreachableError);
    await startRcloneServe(mediaTree(), { rcPort: port });
    expect(await client.listVfs()).toHaveLength(1);
    await client.refresh(["Media"]);
    expect(client.state).toBe("ok");
    expect(at("warn")).toHaveLength(1);
    expect(at("info")).toEqual(["rclone remote control answers again"]);
  });
});

describe.skipIf(!canMount)("rclone remote-control client with several VFS (rclone rcd + two FUSE mounts)", () => {
  it("needs fs when several VFS are active and refreshes the named one", async () => {
    const auth = { user: "u", pass: "p4ssword" };
    const rcd = await startRcloneRcd({ auth });
    const root = makeTempDir();
    for (const name of ["s1/TV", "s2/Movies", "m1", "m2"]) mkdirSync(path.join(root, name), { recursive: true });
    await rcd.mount(path.join(root, "s1"), path.join(root, "m1"));
    await rcd.mount(path.join(root, "s2"), path.join(root, "m2"));
    const client = createRcClient({ url: rcd.rcUrl, ...auth, logger: recordingLogger().logger });
    const names = await client.listVfs();
    expect(names.sort()).toEqual([path.join(root, "s1"), path.join(root, "s2")]);
    await expect(client.refresh(["TV"])).rejects.toThrow(/more than one VFS active/);
    expect((await client.refresh(["TV"], { fs: path.join(root, "s1") })).refreshed).toEqual(["TV"]);
    expect((await client.refresh(["TV"], { fs: path.join(root, "s2") })).failed.map((f) => f.missing)).toEqual([true]);
  });
});
