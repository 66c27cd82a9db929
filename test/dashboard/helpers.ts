import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";

/** A full-page screenshot in test-artefacts/<folder>/<name>.png. */
export async function shot(page: Page, folder: string, name: string): Promise<void> {
  const dir = path.resolve("test-artefacts", folder);
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

/** A Sonarr "Download" webhook for one episode of the show folder /tv/<folder>. */
export const sonarr = (folder: string) => ({
  eventType: "Download",
  series: { path: `/tv/${folder}` },
  episodeFile: { relativePath: "S01E01.mkv" },
});
