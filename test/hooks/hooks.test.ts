import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { hookEnvironment, MAX_LIST_BYTES } from "../../src/hooks/hook-env.js";
import { toHookCommand } from "../../src/hooks/hook-command.js";
import { createHooks, type HookFacts } from "../../src/hooks/hooks.js";
import { runHook } from "../../src/hooks/run-hook.js";
import { tempDir } from "../helpers/cli.js";

const baseEnv = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
const facts: HookFacts = {
  folder: "/data/TV/Show/Season 1",
  source: "sonarr",
  event: "Download",
  target: "plex",
  section: { id: "2", title: "TV Shows" },
  files: ["/data/TV/Show/Season 1/E01.mkv", "/data/TV/Show/Season 1/E02.mkv"],
};

const hooksFor = (before: string | string[], after: string | string[] = "", timeout = 30) =>
  createHooks({ RUN_COMMAND_BEFORE_SCAN: before, RUN_COMMAND_AFTER_SCAN: after, RUN_COMMAND_TIMEOUT: timeout }, { env: baseEnv });

describe("scan hooks", () => {
  it("pass the facts as environment variables, lists one per line and everything again as JSON", async () => {
    const dir = tempDir();
    const script = `printf '%s|%s|%s|%s|%s|%s|%s' "$SCANARR_HOOK" "$SCANARR_FOLDER" "$SCANARR_SECTION" "$SCANARR_EVENT" "$SCANARR_SOURCE" "$SCANARR_RESULT" "$SCANARR_FILES_COUNT" > "${dir}/facts"; printf '%s' "$SCANARR_FILES" > "${dir}/files"; printf '%s' "$SCANARR_JSON" > "${dir}/json"`;
    const run = await hooksFor("", script).after({ ...facts, result: "confirmed" });
    expect(run).toMatchObject({ ok: true, exitCode: 0, stage: "after", command: "/bin/sh -c …" });
    expect(readFileSync(path.join(dir, "facts"), "utf8")).toBe("after|/data/TV/Show/Season 1|2|Download|sonarr|confirmed|2");
    expect(readFileSync(path.join(dir, "files"), "utf8")).toBe("/data/TV/Show/Season 1/E01.mkv\n/data/TV/Show/Season 1/E02.mkv");
    expect(JSON.parse(readFileSync(path.join(dir, "json"), "utf8"))).toMatchObject({ stage: "after", ...facts, result: "confirmed" });
  });

  it("run nothing hidden in a folder name: $(touch …) and backticks arrive as text", async () => {
    const marker = path.join(tempDir(), "x");
    const folder = `/data/TV/$(touch ${marker}) \`touch ${marker}\`; touch ${marker}`;
    const hooks = hooksFor(`echo "$SCANARR_FOLDER"`, ["/usr/bin/env"]);
    const before = await hooks.before({ ...facts, folder });
    const after = await hooks.after({ ...facts, folder });
    expect(before?.lastLines).toEqual([folder]);
    expect(after?.lastLines).toContain(`SCANARR_FOLDER=${folder}`);
    expect(existsSync(marker)).toBe(false);
  });

  it("run an array hook as argv, without a shell", async () => {
    const run = await hooksFor(["/bin/echo", "$SCANARR_FOLDER", "a;b"]).before(facts);
    expect(run?.lastLines).toEqual(["$SCANARR_FOLDER a;b"]);
  });

  it("return a failing before-hook's exit code and last lines instead of throwing", async () => {
    const script = "for i in $(seq 1 15); do echo line $i; done; echo oops >&2; exit 3";
    const run = await hooksFor(script).before(facts);
    expect(run).toMatchObject({ ok: false, exitCode: 3, timedOut: false, error: "exited with code 3" });
    expect(run?.lastLines).toHaveLength(10);
    expect(run?.lastLines.at(-1)).toBe("oops");
  });

  it("report a hook whose program does not exist", async () => {
    const run = await hooksFor(["/nonexistent/hook"]).before(facts);
    expect(run).toMatchObject({ ok: false, error: "/nonexistent/hook was not found" });
  });

  it("run nothing and return undefined when no hook is configured", async () => {
    const hooks = hooksFor("  ", []);
    expect([await hooks.before(facts), await hooks.after(facts)]).toEqual([undefined, undefined]);
  });
});

describe("runHook time limit", () => {
  it("stops the whole process group, a background sleep included, when the time runs out", async () => {
    const pidFile = path.join(tempDir(), "pid");
    const command = toHookCommand(`sleep 30 & echo $! > "${pidFile}"; echo started; wait`);
    if (!command) throw new Error("no command");
    const started = Date.now();
    const result = await runHook(command, { baseEnv, env: {}, timeoutMs: 500, killGraceMs: 500 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result).toMatchObject({ ok: false, timedOut: true, lastLines: ["started"] });
    const sleeper = Number(readFileSync(pidFile, "utf8"));
    await expect.poll(() => isAlive(sleeper), { timeout: 5_000 }).toBe(false);
  });
});

describe("runHook at shutdown", () => {
  it("stops a running hook when the service shuts down, and says so", async () => {
    const command = toHookCommand("sleep 30");
    if (!command) throw new Error("no command");
    const shutdown = new AbortController();
    const running = runHook(command, { baseEnv, env: {}, timeoutMs: 60_000, killGraceMs: 500, signal: shutdown.signal });
    shutdown.abort();
    expect(await running).toMatchObject({ ok: false, timedOut: false, error: "stopped: scanarr is shutting down" });
  });
});

describe("hookEnvironment", () => {
  it("cuts a very long list at a whole line, keeps the full count, and marks the JSON truncated", () => {
    const files = Array.from({ length: 2_000 }, (_, i) => `/data/TV/Show/Season 1/Episode ${String(i).padStart(4, "0")}.mkv`);
    const env = hookEnvironment("before", { ...facts, files });
    expect(Buffer.byteLength(env.SCANARR_FILES ?? "")).toBeLessThanOrEqual(MAX_LIST_BYTES);
    expect(env.SCANARR_FILES?.split("\n").every((line) => files.includes(line))).toBe(true);
    expect(env.SCANARR_FILES_COUNT).toBe("2000");
    expect(JSON.parse(env.SCANARR_JSON ?? "{}")).toMatchObject({ truncated: true });
  });

  it("leaves unset facts out rather than setting them empty", () => {
    const env = hookEnvironment("before", { folder: "/x", source: "manual", event: "Manual" });
    expect(Object.keys(env).sort()).toEqual(["SCANARR_EVENT", "SCANARR_FOLDER", "SCANARR_HOOK", "SCANARR_JSON", "SCANARR_SOURCE"]);
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
