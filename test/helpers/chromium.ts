import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

export const CHROMIUM_PATH = process.env.SCANARR_CHROMIUM ?? "/usr/bin/chromium";

/**
 * Whether the real-browser tests run: when Debian's chromium is installed, and
 * always in CI (where .ci/run installs it), so a missing browser fails there
 * instead of skipping quietly.
 */
export const runBrowserTests = existsSync(CHROMIUM_PATH) || Boolean(process.env.CI);
if (!runBrowserTests) console.warn(`skipping real-browser tests: ${CHROMIUM_PATH} is missing (apt-get install chromium)`);

/** Headless Chromium with the flags this offline machine needs (no background networking). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
