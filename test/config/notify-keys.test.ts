import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import { parseConfigText } from "./parse.js";
import { maskConfig } from "../../src/config/mask.js";
import { secretValuesOf } from "../../src/config/secrets.js";
import { channelsOf } from "../../src/notify/settings.js";
import { PASS, problemsIn } from "./helpers.js";

const DISCORD = "https://discord.com/api/webhooks/1234567890/AbCdEf-webhook-token";

const problemsOf = (extra: Record<string, unknown>): string[] => problemsIn(JSON.stringify({ ...defaultConfig(PASS), ...extra }));

describe("NOTIFICATIONS keys", () => {
  it("are off by default, with a ten-minute target-down threshold", () => {
    const { config } = parseConfigText(JSON.stringify({ SERVER_PASS: PASS }));
    expect(config.NOTIFICATIONS).toEqual([]);
    expect(config.NOTIFY_TARGET_DOWN_MINUTES).toBe(10);
  });

  it("guess Discord from a Discord webhook URL and send every event when EVENTS is left out", () => {
    const { config } = parseConfigText(
      JSON.stringify({
        SERVER_PASS: PASS,
        NOTIFICATIONS: [{ URL: DISCORD }, { URL: "https://hooks.example.com/scanarr", EVENTS: ["scan-failed"] }],
      }),
    );
    expect(channelsOf(config).map((c) => [c.type, [...c.events]])).toEqual([
      ["discord", ["scan-failed", "scan-unconfirmed", "target-down", "anchors-missing", "drive-failing"]],
      ["json", ["scan-failed"]],
    ]);
  });

  it("report every problem with its dotted path, never echoing a URL", () => {
    const problems = problemsOf({
      NOTIFICATIONS: [
        { URL: "discord.com/api/webhooks/1/secret-token-in-path", TYPE: "slack" },
        { URL: "https://user:secret-password@hooks.example.com/x", EVENTS: ["scan-failed", "everything"] },
        { TYPE: "json" },
        { URL: "https://hooks.example.com/y", EVENTS: [] },
      ],
      NOTIFY_TARGET_DOWN_MINUTES: 0,
    });
    expect(problems).toEqual([
      "NOTIFICATIONS[0].URL: must be an http:// or https:// URL, got something else (not shown: it may hold a token)",
      'NOTIFICATIONS[0].TYPE: must be one of "discord", "json", got the string "slack"',
      'NOTIFICATIONS[1].EVENTS[1]: must be one of "scan-failed", "scan-unconfirmed", "target-down", "anchors-missing", "drive-failing", got the string "everything"',
      "NOTIFICATIONS[2].URL: missing; it is required",
      "NOTIFY_TARGET_DOWN_MINUTES: must be at least 1, got 0",
    ]);
    const joined = problems.join("\n");
    expect(joined).not.toContain("secret-token-in-path");
    expect(joined).not.toContain("secret-password");
  });

  it("refuse a URL with credentials and an entry that names no event, once the shape is right", () => {
    expect(
      problemsOf({
        NOTIFICATIONS: [{ URL: "https://user:secret-password@hooks.example.com/x" }, { URL: "https://hooks.example.com/y", EVENTS: [] }],
      }),
    ).toEqual([
      "NOTIFICATIONS[0].URL: must not hold a user name or password (user:pass@); scanarr cannot send to such a URL",
      "NOTIFICATIONS[1].EVENTS: names no event; leave EVENTS out for all of them, or remove the entry",
    ]);
  });

  it("show only the host of each URL in config show", () => {
    const { config } = parseConfigText(JSON.stringify({ SERVER_PASS: PASS, NOTIFICATIONS: [{ URL: DISCORD, TYPE: "discord" }] }));
    const shown = JSON.stringify(maskConfig(config));
    expect(shown).not.toContain("webhook-token");
    expect(shown).not.toContain("1234567890");
    expect(maskConfig(config).NOTIFICATIONS).toEqual([{ URL: "https://discord.com/****", TYPE: "discord" }]);
  });

  it("count the token in a receiver's URL among the secrets masked out of messages, not its short path parts", () => {
    const { config } = parseConfigText(
      JSON.stringify({
        SERVER_PASS: PASS,
        PLEX_TOKEN: "plex-admin-token",
        NOTIFICATIONS: [{ URL: DISCORD }, { URL: "https://hooks.example.com/hooks" }],
      }),
    );
    expect(secretValuesOf(config).sort()).toEqual([PASS, "AbCdEf-webhook-token", "plex-admin-token"].sort());
  });
});
