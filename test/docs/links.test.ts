import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LEGACY_KEYS, type Spec } from "../../src/config/schema.js";
import { configSchema } from "../../src/config/target-kind.js";
import { TARGET_CONFIGS } from "../../src/targets/registry.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const DOCS = path.join(ROOT, "docs");

/** Every Markdown file under docs/, and the README that links into it. */
function markdownFiles(dir = DOCS): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...markdownFiles(full));
    else if (name.endsWith(".md")) out.push(full);
  }
  return dir === DOCS ? [path.join(ROOT, "README.md"), ...out] : out;
}

/** The text outside fenced code blocks: what a reader sees as prose, tables and inline code. */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const match of prose(readFileSync(file, "utf8")).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = (match[1] as string)
      .replace(/`/g, "")
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Each relative link of a file that does not resolve: the file is missing, or it has no such heading. */
function brokenLinks(file: string): string[] {
  const problems: string[] = [];
  const text = prose(readFileSync(file, "utf8")).replace(/`[^`\n]*`/g, "");
  for (const match of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = match[1] as string;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const [where, anchor] = target.split("#") as [string, string | undefined];
    const resolved = where === "" ? file : path.resolve(path.dirname(file), decodeURIComponent(where));
    if (!existsSync(resolved)) {
      problems.push(`${target}: no file ${path.relative(ROOT, resolved)}`);
      continue;
    }
    if (anchor !== undefined && resolved.endsWith(".md") && !anchorsOf(resolved).has(anchor))
      problems.push(`${target}: ${path.relative(ROOT, resolved)} has no heading #${anchor}`);
  }
  return problems;
}

/** Every config path the schema knows, and each of its tails (docs name `ALLOWED.FILE_PATHS` inside the CLOUD section). */
function schemaPaths(spec: Spec, prefix: string[] = [], out = new Set<string>()): Set<string> {
  if (prefix.length > 0) for (let i = 0; i < prefix.length; i++) out.add(prefix.slice(i).join("."));
  if (spec.kind === "object") for (const [key, field] of Object.entries(spec.fields)) schemaPaths(field, [...prefix, key], out);
  if (spec.kind === "list") schemaPaths(spec.item, prefix, out);
  return out;
}

/**
 * Upper-case names in docs that are not config keys, on purpose: environment
 * variables (scanarr's own, the hooks', the container's), names of other
 * programs' settings the docs compare with, and plex_autoscan keys scanarr
 * converts when it imports a config (LEGACY_KEYS, which it accepts and
 * ignores, come from the schema itself).
 */
const NOT_CONFIG = [
  /^SCANARR_[A-Z0-9_]*$/, // environment: the service's, the hooks' and `SCANARR_<KEY>` (a config key from the environment)
  /^(NODE_ENV|NODE_OPTIONS|NO_COLOR|LD_LIBRARY_PATH|PLEX_TV_URL|XDG_[A-Z_]+)$/, // environment of the process (PLEX_TV_URL: `scanarr setup`'s plex.tv)
  /^(RCLONE|PLEX_MEDIA_SERVER|PLEX_AUTOSCAN|AUTOSCAN|AUTOPULSE)_[A-Z0-9_]+$/, // rclone's, Plex's and other scanners' own names
  /^(SQLITE_[A-Z_]+|PATH_MAX)$/, // SQLite's and Linux's constants
  /^TARGET_(TYPES|CONFIGS)$/, // names in the code (architecture.md, decisions.md)
  /^GOOGLE\.[A-Z_.]+$/, // plex_autoscan's GOOGLE section, which `scanarr import` converts to CLOUD
];

/** Backticked names that look like config keys: UPPER_CASE with an underscore, or dotted UPPER.CASE paths. */
function configNames(file: string): string[] {
  const names = new Set<string>();
  for (const match of prose(readFileSync(file, "utf8")).matchAll(/`([A-Z][A-Z0-9_]*(?:\.[A-Z][A-Z0-9_]*|\[\d*\])*)`/g)) {
    const name = (match[1] as string).replace(/\[\d*\]/g, "");
    if (name.includes("_") || name.includes(".")) names.add(name);
  }
  return [...names];
}

describe("docs/", () => {
  const files = markdownFiles();

  it("has a file and a heading behind every relative link", () => {
    const problems = files.flatMap((file) => brokenLinks(file).map((p) => `${path.relative(ROOT, file)}: ${p}`));
    expect(problems).toEqual([]);
  });

  it("names only config keys the schema knows (besides the listed environment variables and legacy keys)", () => {
    // The target folders' own entry fields included (targets/<type>/config.ts).
    const known = schemaPaths(configSchema(TARGET_CONFIGS));
    const problems = files.flatMap((file) =>
      configNames(file)
        .filter((name) => !known.has(name) && !LEGACY_KEYS.has(name) && !NOT_CONFIG.some((re) => re.test(name)))
        .map((name) => `${path.relative(ROOT, file)}: ${name}`),
    );
    expect(problems).toEqual([]);
  });

  it("finds a broken link and an unknown key when there is one", () => {
    // The checks above pass on an empty result: this proves they can fail.
    const dir = path.join(ROOT, "test", "docs", "fixtures");
    const sample = path.join(dir, "broken.md");
    expect(brokenLinks(sample)).toEqual([
      "missing.md: no file test/docs/fixtures/missing.md",
      "#no-such-heading: test/docs/fixtures/broken.md has no heading #no-such-heading",
    ]);
    expect(configNames(sample).filter((n) => !schemaPaths(configSchema(TARGET_CONFIGS)).has(n))).toEqual(["SERVER_NO_SUCH_KEY"]);
  });
});
