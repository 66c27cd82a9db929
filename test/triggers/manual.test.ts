import { describe, expect, it } from "vitest";
import { parseScanRequest } from "../../src/triggers/index.js";

describe("manual requests", () => {
  it("takes the form fields curl -d sends and leaves file-or-folder to the server", () => {
    const form: Record<string, string> = { eventType: "Manual", filepath: "/mnt/unionfs/Media/Movies/Heat (1995)/" };
    expect(parseScanRequest(form)).toEqual({
      kind: "scan",
      source: "manual",
      event: "Manual",
      paths: [{ path: "/mnt/unionfs/Media/Movies/Heat (1995)/", kind: "unknown" }],
    });
  });

  it("takes the same fields as JSON, with a cloud-drive path unchanged", () => {
    const result = parseScanRequest({ eventType: "manual", filepath: "My Drive/Media/TV/Dark/Season 1" });
    expect(result).toMatchObject({ kind: "scan", source: "manual", event: "Manual" });
    if (result.kind === "scan") expect(result.paths[0]?.path).toBe("My Drive/Media/TV/Dark/Season 1");
  });

  it("marks the file replaced in place when the body says refresh (Tdarr's web request), and refuses a refresh that is not on or off", () => {
    for (const refresh of [true, "1", "true"]) {
      expect(parseScanRequest({ eventType: "Manual", filepath: "/movies/Heat/Heat.mkv", refresh })).toMatchObject({
        paths: [{ path: "/movies/Heat/Heat.mkv", kind: "unknown", refresh: true }],
      });
    }
    expect(parseScanRequest({ eventType: "Manual", filepath: "/movies/Heat/Heat.mkv", refresh: false })).toMatchObject({
      paths: [{ path: "/movies/Heat/Heat.mkv", kind: "unknown" }],
    });
    expect(parseScanRequest({ eventType: "Manual", filepath: "/m/Heat.mkv", refresh: "sure" })).toEqual({
      kind: "invalid",
      reason: "refresh must be true, false, 1 or 0",
    });
  });

  it("is invalid, not a server error, when filepath is missing", () => {
    expect(parseScanRequest({ eventType: "Manual" })).toEqual({
      kind: "invalid",
      reason: "manual request without a filepath field",
    });
  });

  it.each([
    ["empty", "", "filepath is empty"],
    ["blank", "  \n", "filepath is empty"],
    ["an empty list", [], "filepath is an empty list"],
    ["a list holding a number", ["/a", 5], "filepath must be a string or a list of strings"],
    ["a list holding a blank", ["/a", " "], "filepath is empty"],
    ["a number", 5, "filepath must be a string or a list of strings"],
  ])("is invalid when filepath is %s", (_label, filepath, reason) => {
    expect(parseScanRequest({ eventType: "Manual", filepath })).toEqual({ kind: "invalid", reason });
  });

  it("scans every path of a filepath given several times (a form) or as a list", () => {
    expect(parseScanRequest({ eventType: "Manual", filepath: ["/tv/A", "/tv/B"] })).toMatchObject({
      kind: "scan",
      paths: [
        { path: "/tv/A", kind: "unknown" },
        { path: "/tv/B", kind: "unknown" },
      ],
    });
  });

  it("is invalid when filepath carries a NUL byte", () => {
    expect(parseScanRequest({ eventType: "Manual", filepath: "/tv/a\0b" }).kind).toBe("invalid");
  });

  it("keeps a Manual eventType manual even when the body also looks like Sonarr's", () => {
    const result = parseScanRequest({ eventType: "Manual", filepath: "/tv/A", series: { path: "/tv/B" } });
    expect(result).toMatchObject({ kind: "scan", source: "manual" });
  });
});
