import { describe, expect, it } from "vitest";
import { load, problemsOf } from "./helpers.js";

const ABS_TOKEN = { TYPE: "audiobookshelf", NAME: "abs", URL: "http://abs:13378", TOKEN: "eyJhbGciOiJIUzI1NiJ9.abc.def" };
const ABS_LOGIN = { TYPE: "audiobookshelf", NAME: "abs-login", URL: "http://abs:13378/abs", USERNAME: "root", PASSWORD: "p4ss word" };
const FILEFLOWS = { TYPE: "fileflows", NAME: "fileflows", URL: "http://fileflows:19200" };

describe("TARGETS of TYPE audiobookshelf and fileflows", () => {
  it("accepts Audiobookshelf with an API token or a user's login, and FileFlows with its URL alone", () => {
    const config = load({ TARGETS: [ABS_TOKEN, ABS_LOGIN, FILEFLOWS] });
    expect(config.TARGETS.map((t) => [t.TYPE, t.NAME])).toEqual([
      ["audiobookshelf", "abs"],
      ["audiobookshelf", "abs-login"],
      ["fileflows", "fileflows"],
    ]);
    expect(config.TARGETS[1]).toMatchObject({ TOKEN: "", USERNAME: "root", PASSWORD: "p4ss word" });
  });

  it("reports every credential problem at once", () => {
    const problems = problemsOf({
      TARGETS: [
        { TYPE: "audiobookshelf", NAME: "a", URL: "http://abs:13378" },
        { ...ABS_LOGIN, NAME: "b", TOKEN: "t" },
        { ...ABS_LOGIN, NAME: "c", PASSWORD: "" },
        { ...ABS_TOKEN, NAME: "d", TOKEN: 'to"ken' },
        { ...FILEFLOWS, NAME: "e", TOKEN: "t", USERNAME: "u" },
        { TYPE: "fileflows", NAME: "f" },
      ],
    });
    expect(problems).toEqual([
      'TARGETS[0].TOKEN: must be set for TYPE "audiobookshelf" (an API token from the user\'s settings, or USERNAME and PASSWORD)',
      "TARGETS[1].TOKEN: set TOKEN or USERNAME and PASSWORD, not both",
      "TARGETS[2].PASSWORD: must be set when USERNAME is",
      "TARGETS[3].TOKEN: must not contain spaces, quotes or control characters",
      'TARGETS[4].TOKEN: not used by TYPE "fileflows" (scanarr sends it no credential)',
      'TARGETS[4].USERNAME: not used by TYPE "fileflows" (scanarr sends it no credential)',
      'TARGETS[5].URL: must be set for TYPE "fileflows"',
    ]);
  });
});
