import { describe, expect, it } from "vitest";
import { readServerUrl, serverUrlProblem } from "../../src/lib/server-url.js";

describe("readServerUrl", () => {
  it("answers the base URL without trailing slashes", () => {
    expect(readServerUrl("http://jf:8096/jf//", "URL", "TOKEN")).toEqual({ url: "http://jf:8096/jf" });
  });

  it.each([
    ["not a url", "URL is not a URL"],
    ["ftp://plex:32400", "URL must start with http"],
    ["http://user:secret@plex:32400", "URL must not contain a user name or password; use TOKEN"],
    ["http://plex:32400/?X-Plex-Token=abc", "URL must not contain a query string; put the credential in TOKEN"],
  ])("returns the problem with %s instead of throwing", (raw, problem) => {
    const read = readServerUrl(raw, "URL", "TOKEN");
    expect(read.url).toBeUndefined();
    expect(read.problem).toContain(problem);
  });

  it("never repeats a password or query it refuses", () => {
    expect(serverUrlProblem("http://user:hunter2@plex:32400", "TOKEN")).not.toContain("hunter2");
    expect(serverUrlProblem("http://plex:32400/?X-Plex-Token=abc123", "TOKEN")).not.toContain("abc123");
  });
});
