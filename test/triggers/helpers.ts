import { readFileSync, readdirSync } from "node:fs";
import type { RequestedPath, TriggerResult } from "../../src/triggers/index.js";
import { sharedFixture } from "../helpers/shared-fixtures.js";

/** The shared webhook fixtures; `webhookFixtures.run` says whether their tests run. */
export const webhookFixtures = sharedFixture("webhooks", "the webhook fixture tests", "webhooks/EXPECTED.md");

export function loadFixture(name: string): unknown {
  return JSON.parse(readFileSync(webhookFixtures.file(name), "utf8"));
}

export function listFixtureFiles(): string[] {
  return readdirSync(webhookFixtures.file())
    .filter((name) => name.endsWith(".json"))
    .sort();
}

/** The "file name → sorted folders" JSON block that EXPECTED.md ends with. */
export function readExpectedFolders(): Record<string, string[]> {
  const markdown = readFileSync(webhookFixtures.file("EXPECTED.md"), "utf8");
  const block = /```json\n([\s\S]*?)\n```/.exec(markdown);
  if (block?.[1] === undefined) throw new Error("EXPECTED.md has no ```json block");
  return JSON.parse(block[1]) as Record<string, string[]>;
}

/** A file's parent or a folder itself, as the server will compute it; kept local so tests don't depend on src/paths. */
export function folderOf(requested: RequestedPath): string {
  const trimmed = requested.path.replace(/[\\/]+$/, "");
  if (requested.kind === "folder") return trimmed;
  const cut = Math.max(trimmed.lastIndexOf("/"), trimmed.lastIndexOf("\\"));
  if (cut === -1) return ".";
  return cut === 0 ? trimmed.slice(0, 1) : trimmed.slice(0, cut);
}

export function foldersOf(result: TriggerResult): string[] {
  if (result.kind !== "scan") return [];
  return [...new Set(result.paths.map(folderOf))].sort();
}

/** Narrows to a scan result or fails the test with what came back instead. */
export function expectScan(result: TriggerResult): Extract<TriggerResult, { kind: "scan" }> {
  if (result.kind !== "scan") throw new Error(`expected a scan, got ${JSON.stringify(result)}`);
  return result;
}
