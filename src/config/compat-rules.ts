import path from "node:path";
import type { Config } from "./types.js";
import { messageOf } from "../lib/errors.js";

/** Names /triggers/ always serves itself; TRIGGERS cannot take them. */
export const RESERVED_TRIGGER_NAMES: readonly string[] = ["manual", "a-train"];

/** Cross-key checks of the login, TRIGGERS and WATCH keys. */
export function checkCompatRules(config: Config): string[] {
  return [...checkLogin(config), ...checkTriggers(config), ...checkWatch(config)];
}

function checkLogin(config: Config): string[] {
  const problems: string[] = [];
  const hasUser = config.SERVER_USERNAME !== "";
  const hasHash = config.SERVER_PASSWORD_HASH !== "";
  if (hasUser && !hasHash) problems.push("SERVER_PASSWORD_HASH: must be set when SERVER_USERNAME is (run: scanarr passwd)");
  if (hasHash && !hasUser) problems.push("SERVER_USERNAME: must be set when SERVER_PASSWORD_HASH is (run: scanarr passwd)");
  // HTTP Basic splits user and password at the first colon.
  if (config.SERVER_USERNAME.includes(":")) problems.push("SERVER_USERNAME: must not contain a colon (HTTP Basic cannot carry it)");
  return problems;
}

function checkTriggers(config: Config): string[] {
  const problems: string[] = [];
  const seen = new Map<string, number>();
  config.TRIGGERS.forEach((entry, i) => {
    const at = `TRIGGERS[${i}].NAME`;
    if (RESERVED_TRIGGER_NAMES.includes(entry.NAME)) problems.push(`${at}: "${entry.NAME}" is built in and cannot be redefined`);
    const first = seen.get(entry.NAME);
    if (first !== undefined) problems.push(`${at}: "${entry.NAME}" is already defined by TRIGGERS[${first}]`);
    else seen.set(entry.NAME, i);
  });
  return problems;
}

function checkWatch(config: Config): string[] {
  const problems: string[] = [];
  const roots: Array<{ at: string; root: string }> = [];
  config.WATCH.forEach((entry, i) => {
    if (entry.PATHS.length === 0) problems.push(`WATCH[${i}].PATHS: must name at least one folder`);
    entry.PATHS.forEach((raw, j) => {
      const at = `WATCH[${i}].PATHS[${j}]`;
      if (!path.isAbsolute(raw)) return problems.push(`${at}: must be an absolute path, got ${JSON.stringify(raw)}`);
      const root = path.resolve(raw);
      const clash = roots.find((other) => isSameOrInside(root, other.root) || isSameOrInside(other.root, root));
      if (clash) problems.push(`${at}: overlaps ${clash.at} (${clash.root}); a folder can be watched once`);
      roots.push({ at, root });
    });
    (entry.IGNORE ?? []).forEach((pattern, j) => {
      try {
        new RegExp(pattern);
      } catch (error) {
        problems.push(`WATCH[${i}].IGNORE[${j}]: not a valid regular expression: ${messageOf(error)}`);
      }
    });
  });
  return problems;
}

function isSameOrInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}
