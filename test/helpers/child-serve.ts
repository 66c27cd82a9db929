import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export interface ChildServe {
  child: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts `scanarr serve` in a child process (from source, no build) and waits for its port. */
export async function spawnServe(installDir: string, timeoutMs = 20_000): Promise<ChildServe> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(repoRoot, "src/cli/main.ts"), "--install-dir", installDir, "--log-format", "json", "serve"],
    {
      cwd: repoRoot,
      env: { ...process.env, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let text = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${text}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const match = /"port":(\d+)/.exec(text);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stderr?.on("data", onData);
    child.stdout?.on("data", (c: Buffer) => (text += c.toString()));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code} before listening: ${text}`));
    });
  });
  return { child, port, output: () => text, exited };
}
