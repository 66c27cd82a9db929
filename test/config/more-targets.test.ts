import { describe, expect, it } from "vitest";
import { load, problemsOf } from "./helpers.js";

const TDARR = { TYPE: "tdarr", NAME: "tdarr", URL: "http://tdarr:8265", LIBRARY_ID: "XyZ12ab" };
const SONARR = { TYPE: "sonarr", NAME: "sonarr", URL: "http://sonarr:8989", TOKEN: "0123456789abcdef0123456789abcdef" };
const RADARR = { TYPE: "radarr", NAME: "radarr", URL: "http://radarr:7878/radarr", TOKEN: "fedcba9876543210fedcba9876543210" };
const COMMAND = { TYPE: "command", NAME: "notify", COMMAND: ["/usr/local/bin/notify", "--folder={folder}", "{file}"], TIMEOUT: 30 };

describe("TARGETS of TYPE tdarr, sonarr, radarr and command", () => {
  it("accepts each with what it needs, keeping the fields only its TYPE takes", () => {
    const config = load({ TARGETS: [TDARR, SONARR, RADARR, COMMAND, { ...TDARR, NAME: "tdarr-auth", TOKEN: "tapi_abcdef123456" }] });
    expect(config.TARGETS.map((t) => t.NAME)).toEqual(["tdarr", "sonarr", "radarr", "notify", "tdarr-auth"]);
    expect(config.TARGETS[0]).toMatchObject({ LIBRARY_ID: "XyZ12ab", TOKEN: "" });
    expect(config.TARGETS[3]).toMatchObject({ URL: "", COMMAND: COMMAND.COMMAND, TIMEOUT: 30 });
    expect(config.TARGETS[1]).not.toHaveProperty("COMMAND");
  });

  it("reports what each lacks or must not have, all at once", () => {
    const problems = problemsOf({
      TARGETS: [
        { TYPE: "tdarr", NAME: "t", URL: "http://tdarr:8265" },
        { TYPE: "sonarr", NAME: "s", URL: "http://sonarr:8989" },
        { TYPE: "radarr", NAME: "r", URL: "http://radarr:7878", TOKEN: "k", USERNAME: "u", LIBRARY_ID: "x" },
        { TYPE: "command", NAME: "c", URL: "http://x", TOKEN: "t" },
        { TYPE: "jellyfin", NAME: "j", URL: "http://jf:8096", TOKEN: "k", COMMAND: ["/bin/true"], TIMEOUT: 5 },
      ],
    });
    expect(problems).toEqual([
      'TARGETS[0].LIBRARY_ID: must be set for TYPE "tdarr" (the id of the Tdarr library to scan new files into)',
      'TARGETS[1].TOKEN: must be set for TYPE "sonarr" (the API key from Settings > General)',
      'TARGETS[2].USERNAME: only TYPEs "autoscan" and "audiobookshelf" use USERNAME and PASSWORD; use TOKEN',
      'TARGETS[2].LIBRARY_ID: only TYPE "tdarr" takes it',
      'TARGETS[3].URL: not used by TYPE "command" (it runs COMMAND)',
      'TARGETS[3].TOKEN: not used by TYPE "command" (it runs COMMAND)',
      'TARGETS[3].COMMAND: must be set for TYPE "command" (the program, then its arguments)',
      'TARGETS[4].COMMAND: only TYPE "command" takes it',
      'TARGETS[4].TIMEOUT: only TYPE "command" takes it',
    ]);
  });

  it("refuses a command template that would not run as meant, naming the element", () => {
    const problems = problemsOf({
      TARGETS: [
        { ...COMMAND, COMMAND: [] },
        { ...COMMAND, NAME: "c2", COMMAND: ["{folder}", "--file={file}", "{files}", "{folder}/x"] },
      ],
    });
    expect(problems).toEqual([
      "TARGETS[0].COMMAND: must start with the program to run",
      "TARGETS[1].COMMAND[0]: the program cannot be a placeholder",
      "TARGETS[1].COMMAND[1]: {file} must be an element of its own (each file becomes one argument)",
      "TARGETS[1].COMMAND[2]: unknown placeholder {files}; the placeholders are {folder} and {file}",
    ]);
  });

  it("refuses a time limit under one second", () => {
    expect(problemsOf({ TARGETS: [{ ...COMMAND, TIMEOUT: 0 }] })).toEqual(["TARGETS[0].TIMEOUT: must be at least 1, got 0"]);
  });
});
