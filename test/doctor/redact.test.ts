import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import type { Config } from "../../src/config/types.js";
import { memoLibraries, runChecks } from "../../src/doctor/run.js";
import { resolveInstallPaths } from "../../src/lib/install-paths.js";
import { tempDir } from "../helpers/cli.js";

describe("doctor's report", () => {
  it("masks every secret the schema declares, from a check's detail and from a check that threw", async () => {
    const base = defaultConfig("0123456789abcdef0123456789abcdef");
    const config: Config = {
      ...base,
      TARGETS: [{ TYPE: "jellyfin", NAME: "jf", URL: "http://jf:8096", TOKEN: "jellyfin-api-key-1234" } as Config["TARGETS"][number]],
      RCLONE: { ...base.RCLONE, RC_CACHE_REFRESH: { ...base.RCLONE.RC_CACHE_REFRESH, RC_PASS: "rclone-rc-password" } },
      NOTIFICATIONS: [{ URL: "https://discord.com/api/webhooks/1/discord-webhook-token-abcdef" }],
    };
    const ctx = { config, paths: resolveInstallPaths(tempDir()), unmet: [], targets: [], libraries: memoLibraries([]) };
    const results = await runChecks(
      [
        { name: "echo", run: async () => [{ name: "echo", ok: false, detail: "token jellyfin-api-key-1234, pass rclone-rc-password" }] },
        {
          name: "thrower",
          run: async () => {
            throw new Error("POST https://discord.com/api/webhooks/1/discord-webhook-token-abcdef failed");
          },
        },
      ],
      ctx,
    );
    const text = results.map((r) => r.detail).join("\n");
    expect(text).toContain("[redacted]");
    expect(text).not.toMatch(/jellyfin-api-key|rclone-rc-password|discord-webhook-token/);
  });
});
