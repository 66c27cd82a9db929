import { describe, expect, it } from "vitest";
import { TargetFatalError, TargetUnavailableError } from "../../../src/domain.js";
import { CATCH_ALL_LIBRARY } from "../../../src/targets/catch-all.js";
import { CommandTarget } from "../../../src/targets/command/command-target.js";
import { createArgvRecorder } from "../../helpers/argv-recorder.js";

function target(template: string[], options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): CommandTarget {
  return new CommandTarget({
    name: "cmd",
    template,
    timeoutMs: options.timeoutMs ?? 10_000,
    timeoutKey: "TARGETS[0].TIMEOUT",
    killGraceMs: 200,
    env: options.env ?? { PATH: process.env.PATH ?? "/usr/bin:/bin" },
  });
}

const HOSTILE_FOLDER = `/media/TV/$(rm -rf ~) it's "quoted" \`id\``;
const HOSTILE_FILES = [
  `${HOSTILE_FOLDER}/-rf --no-preserve-root.mkv`,
  `${HOSTILE_FOLDER}/two\nlines; echo pwned > /tmp/x.srt`,
  `${HOSTILE_FOLDER}/Amélie – 日本語 🎬 \\ back*slash?.mkv`,
];

describe("the command target", () => {
  it("runs the program with the folder and each file as arguments, every name intact", async () => {
    const recorder = createArgvRecorder();
    await target([recorder.program, "--folder", "{folder}", "--in={folder}/", "{file}", "-"]).scan(
      HOSTILE_FOLDER,
      CATCH_ALL_LIBRARY,
      HOSTILE_FILES,
    );
    expect(recorder.runs()).toEqual([["--folder", HOSTILE_FOLDER, `--in=${HOSTILE_FOLDER}/`, ...HOSTILE_FILES, "-"]]);
  });

  it("gives {file} no argument at all when the request named no file", async () => {
    const recorder = createArgvRecorder();
    await target([recorder.program, "{folder}", "{file}"]).scan("/media/TV/Show", CATCH_ALL_LIBRARY);
    expect(recorder.runs()).toEqual([["/media/TV/Show"]]);
  });

  it("fails the delivery on a non-zero exit, with the tail of stderr (not stdout) in the error", async () => {
    const recorder = createArgvRecorder({ exitCode: 3, stderr: "library is locked" });
    const error = await target([recorder.program, "{folder}"])
      .scan("/media/A", CATCH_ALL_LIBRARY)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetFatalError);
    expect(String(error)).toContain(`${recorder.program} exited with code 3; stderr: library is locked`);
    expect(String(error)).not.toContain("a line on stdout");
  });

  it("stops a program that outlives its time limit and asks for a retry", async () => {
    const recorder = createArgvRecorder({ sleepSeconds: 30 });
    const started = Date.now();
    const error = await target([recorder.program], { timeoutMs: 300 })
      .scan("/media/A", CATCH_ALL_LIBRARY)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetUnavailableError);
    expect(String(error)).toContain("stopped after 0 s (TARGETS[0].TIMEOUT)");
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(recorder.runs()).toEqual([]);
  });

  it("fails a program that does not exist, and doctor says so before any scan", async () => {
    const missing = target(["/nonexistent/scanarr-test-program", "{folder}"]);
    await expect(missing.scan("/media/A", CATCH_ALL_LIBRARY)).rejects.toBeInstanceOf(TargetFatalError);
    await expect(missing.checkAccess()).rejects.toThrow(
      "the program /nonexistent/scanarr-test-program was not found, or this user may not run it",
    );
  });

  it("looks for the program when its library is listed, so /health shows a missing one as down", async () => {
    const recorder = createArgvRecorder();
    const present = target([recorder.program]);
    await present.libraries.refreshLibraries();
    expect(present.contact().state).toBe("ok");
    const missing = target(["/nonexistent/scanarr-test-program"]);
    await missing.libraries.refreshLibraries();
    expect(missing.contact().state).toBe("unavailable");
    expect(recorder.runs()).toEqual([]);
  });

  it("finds a bare program name through the PATH it runs with, for doctor", async () => {
    const recorder = createArgvRecorder();
    const dir = recorder.program.slice(0, recorder.program.lastIndexOf("/"));
    const bare = target(["record-argv.sh"], { env: { PATH: `/nonexistent:${dir}` } });
    await expect(bare.checkAccess()).resolves.toBe(`${recorder.program} is executable`);
    await expect(target(["record-argv.sh"], { env: { PATH: "/nonexistent" } }).checkAccess()).rejects.toThrow(
      "in the PATH scanarr runs with",
    );
  });
});
