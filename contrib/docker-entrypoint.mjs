#!/usr/bin/env node
// The container's way into scanarr, for `serve` and for every `docker exec … scanarr …`:
// the conventions of the linuxserver.io and hotio images. Started as root, it makes the
// state folders (/config, /data) belong to PUID:PGID, sets UMASK, drops to that user and
// group, and only then loads scanarr, in the same process (no second Node in memory).
// TZ needs nothing here: Node reads it itself. Started as another user (`--user`), it
// changes nothing and runs scanarr as that user.
import { chownSync, existsSync, lstatSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";

const STATE_DIRS = ["/config", "/data"];
const SCANARR = "/app/bin/scanarr.js";

function fail(message) {
  process.stderr.write(`error: ${message}\n`);
  process.exit(2);
}

/** A uid or gid from the environment: a whole number, 0 to 2^31 - 1. */
function idFrom(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  if (!/^\d{1,10}$/.test(raw.trim()) || Number(raw) > 2 ** 31 - 1) fail(`${name}="${raw}" is not a user or group number (e.g. ${name}=1000)`);
  return Number(raw);
}

/** UMASK as the images take it: three or four octal digits (002, 0022). */
function umaskFrom(raw) {
  if (raw === undefined || raw.trim() === "") return undefined;
  if (!/^0?[0-7]{3}$/.test(raw.trim())) fail(`UMASK="${raw}" is not an octal mask (e.g. UMASK=002)`);
  return Number.parseInt(raw.trim(), 8);
}

/** Gives `dir` and everything under it (never following a link) to uid:gid, where it is not theirs already. */
function own(dir, uid, gid) {
  const stat = lstatSync(dir);
  if (stat.uid !== uid || stat.gid !== gid) chownSync(dir, uid, gid);
  if (!stat.isDirectory()) return;
  for (const entry of readdirSync(dir)) own(path.join(dir, entry), uid, gid);
}

const mask = umaskFrom(process.env.UMASK);
if (mask !== undefined) process.umask(mask);

if (process.getuid?.() === 0) {
  const uid = idFrom("PUID", 1000);
  const gid = idFrom("PGID", 1000);
  if (uid === 0) process.stderr.write("warning: PUID=0 runs scanarr as root; any other uid is safer\n");
  for (const dir of STATE_DIRS) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    own(dir, uid, gid);
  }
  process.setgroups([gid]);
  process.setgid(gid);
  process.setuid(uid);
} else if (process.env.PUID !== undefined || process.env.PGID !== undefined) {
  process.stderr.write(`note: started as uid ${process.getuid?.()} (--user), so PUID and PGID are not applied\n`);
}

// scanarr's entry point runs when it is the script named on the command line. It is named as the
// PATH entry (/usr/local/bin/scanarr links here), so hints say `scanarr setup`, not a file path.
process.argv[1] = existsSync("/usr/local/bin/scanarr") ? "/usr/local/bin/scanarr" : SCANARR;
await import(SCANARR);
