import { describe, expect, it } from "vitest";
import { withIsoTwins } from "../../src/lib/iso-twins.js";

describe("ISO 8601 twins in JSON answers", () => {
  it("adds a twin beside every epoch time at any depth: origins, deliveries, since, null", () => {
    const scan = {
      id: 3,
      dueAt: Date.UTC(2026, 10, 28, 12, 0, 0),
      finishedAt: null,
      origins: [{ path: "/tv/a.mkv", firstAt: 0, lastAt: 1_000 }],
      deliveries: [{ target: "plex", updatedAt: Date.UTC(2026, 0, 1), holds: [{ since: 5 }] }],
      title: "At", // not a time: its key does not end in At
      reason: { code: "debouncing", at: 60_000 },
    };
    expect(withIsoTwins(scan)).toEqual({
      ...scan,
      dueAtIso: "2026-11-28T12:00:00.000Z",
      reason: { code: "debouncing", at: 60_000, atIso: "1970-01-01T00:01:00.000Z" },
      finishedAtIso: null,
      origins: [
        { path: "/tv/a.mkv", firstAt: 0, firstAtIso: "1970-01-01T00:00:00.000Z", lastAt: 1_000, lastAtIso: "1970-01-01T00:00:01.000Z" },
      ],
      deliveries: [
        {
          target: "plex",
          updatedAt: Date.UTC(2026, 0, 1),
          updatedAtIso: "2026-01-01T00:00:00.000Z",
          holds: [{ since: 5, sinceIso: "1970-01-01T00:00:00.005Z" }],
        },
      ],
    });
  });

  it("keeps a twin that is there already and leaves strings and counts alone", () => {
    const value = { checkedAt: 1, checkedAtIso: "given", count: 4, at: "x", format: 2 };
    expect(withIsoTwins(value)).toEqual(value);
  });
});
