import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import type { CloudAllowed } from "../../src/config/types.js";
import { GOOGLE_BACKOFF } from "../../src/drive/backoff.js";
import { backoffDelay } from "../../src/lib/backoff.js";
import { toDriveApiError } from "../../src/drive/errors.js";
import { createChangeFilter, extensionOf } from "../../src/drive/filters.js";

const allowed = (overrides: Partial<CloudAllowed> = {}): CloudAllowed => ({ ...defaultConfig("a".repeat(32)).CLOUD.ALLOWED, ...overrides });

describe("CLOUD.ALLOWED filter", () => {
  const filter = createChangeFilter(allowed());

  it("passes a video under a watched folder", () => {
    expect(filter("My Drive/Media/Movies/X (2020)/x.mkv", "video/x-matroska")).toBeUndefined();
  });

  it("matches FILE_PATHS by whole components and ignores case", () => {
    expect(filter("My Drive/Media/Movies 4K/x.mkv", "video/x-matroska")).toBe("path");
    expect(filter("my drive/media/movies/x.mkv", "video/x-matroska")).toBeUndefined();
  });

  it("compares the real extension without the dot, ignoring case", () => {
    expect(filter("My Drive/Media/Movies/X/x.MKV", "video/x-matroska")).toBeUndefined();
    expect(filter("My Drive/Media/Movies/X/mkv", "video/x-matroska")).toBe("extension");
    expect(filter("My Drive/Media/Movies/X/x.mkv.txt", "text/plain")).toBe("extension");
    expect(extensionOf("My Drive/.mkv")).toBe("");
    expect(extensionOf("a.b/c")).toBe("");
  });

  it("matches MIME_TYPES_LIST as a type prefix and turns away .sub files Drive labels as video", () => {
    const f = createChangeFilter(allowed({ FILE_EXTENSIONS: false }));
    expect(f("My Drive/Media/TV/s.ts", "videoish/x")).toBe("mime type");
    expect(f("My Drive/Media/TV/s.ts", "VIDEO/MP2T")).toBeUndefined();
    expect(f("My Drive/Media/TV/s.sub", "video/MP2G")).toBe("mime type");
  });

  it("skips a filter that is switched off", () => {
    const f = createChangeFilter(allowed({ FILE_EXTENSIONS: false, MIME_TYPES: false }));
    expect(f("My Drive/Media/TV/notes.txt", "text/plain")).toBeUndefined();
  });

  it("lets every path through when FILE_PATHS is empty", () => {
    const f = createChangeFilter(allowed({ FILE_PATHS: [] }));
    expect(f("Anything/At/All/x.mkv", "video/x-matroska")).toBeUndefined();
  });
});

describe("Drive error classification and backoff", () => {
  const gaxios = (status: number, reason?: string): unknown => ({
    response: { status, data: { error: { errors: reason ? [{ reason }] : [] } } },
  });

  it("retries rate limits, 429, 5xx and network failures and nothing else", () => {
    expect(toDriveApiError(gaxios(403, "userRateLimitExceeded"), "x").retryable).toBe(true);
    expect(toDriveApiError(gaxios(429), "x").retryable).toBe(true);
    expect(toDriveApiError(gaxios(502), "x").retryable).toBe(true);
    expect(toDriveApiError(new Error("ECONNREFUSED"), "x").retryable).toBe(true);
    expect(toDriveApiError(gaxios(403, "dailyLimitExceeded"), "x").retryable).toBe(false);
    expect(toDriveApiError(gaxios(401), "x").kind).toBe("auth");
    expect(toDriveApiError(gaxios(404), "x").kind).toBe("not-found");
  });

  it("doubles the delay up to 32 s and adds at most a second of jitter", () => {
    expect([1, 2, 3, 6, 10].map((n) => backoffDelay(n, GOOGLE_BACKOFF, () => 0))).toEqual([1000, 2000, 4000, 32_000, 32_000]);
    expect(backoffDelay(1, GOOGLE_BACKOFF, () => 0.999)).toBe(1999);
  });
});
