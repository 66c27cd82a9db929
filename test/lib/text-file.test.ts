import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeReadError, readTextFile, readTextFileSync } from "../../src/lib/text-file.js";

const dir = mkdtempSync(path.join(tmpdir(), "scanarr-text-file-"));
const fifo = path.join(dir, "fifo");
execFileSync("mkfifo", [fifo]);
const small = path.join(dir, "small");
writeFileSync(small, "a secret\n");
const large = path.join(dir, "large");
writeFileSync(large, "x".repeat(2048));

/** What each reader makes of `file`: its text, or the error in words. */
async function both(file: string, maxBytes: number): Promise<string[]> {
  const sync = (() => {
    try {
      return readTextFileSync(file, maxBytes);
    } catch (error) {
      return describeReadError(error);
    }
  })();
  const async = await readTextFile(file, maxBytes).catch(describeReadError);
  return [sync, async];
}

describe("reading a file the user named", () => {
  it("reads a small regular file", async () => {
    expect(await both(small, 1024)).toEqual(["a secret\n", "a secret\n"]);
  });

  it("refuses, without waiting or reading, a FIFO no one writes to, a device that never ends, a folder, a file over the bound", async () => {
    const notRegular = "it is not a regular file (a FIFO, a device or a socket)";
    expect(await both(fifo, 1024)).toEqual([notRegular, notRegular]);
    expect(await both("/dev/zero", 1024)).toEqual([notRegular, notRegular]);
    expect(await both(dir, 1024)).toEqual(["it is a folder", "it is a folder"]);
    expect(await both(large, 1024)).toEqual(["it is larger than 1 KiB", "it is larger than 1 KiB"]);
    expect(await both(path.join(dir, "missing"), 1024)).toEqual(["no such file", "no such file"]);
  });
});
