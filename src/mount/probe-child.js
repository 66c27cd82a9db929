// The child process behind PathProbe (path-probe.ts): it answers "what is at
// this path" over IPC. A stat on a stalled FUSE mount blocks the libuv thread
// running it until the mount answers; here that blocks a thread of a process
// the parent can kill, never one of the service's own four.
//
// Plain JavaScript on purpose: it must run with bare `node` both from src/
// (tests, tsx) and from dist/ (tsc copies it there through allowJs).
import { opendir, stat } from "node:fs/promises";

process.on("message", (message) => {
  for (const { id, path } of message.checks) void answer(id, path);
});
// The parent went away: nothing left to answer.
process.on("disconnect", () => process.exit(0));

// Answers that complete in the same turn go back in one message: a check
// round of thousands of files costs tens of IPC messages, not thousands.
let replies = [];

async function answer(id, path) {
  const result = await inspect(path);
  if (replies.length === 0) setImmediate(flush);
  replies.push({ id, ...result });
}

function flush() {
  const batch = replies;
  replies = [];
  if (process.connected) process.send({ replies: batch });
}

async function inspect(path) {
  try {
    const info = await stat(path);
    if (!info.isDirectory()) return { state: "file" };
    const dir = await opendir(path, { bufferSize: 1 });
    try {
      return { state: (await dir.read()) === null ? "empty-folder" : "folder" };
    } finally {
      await dir.close();
    }
  } catch (error) {
    const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : "";
    // ENOENT/ENOTDIR are the plain "not there"; anything else (ENOTCONN from a
    // dead mount, EIO, EACCES) is worth showing to the user.
    if (code === "ENOENT" || code === "ENOTDIR") return { state: "missing" };
    return { state: "missing", error: error instanceof Error ? error.message : String(error) };
  }
}
