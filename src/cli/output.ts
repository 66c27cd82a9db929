import { Chalk, type ChalkInstance } from "chalk";

/** Whether to colour output: never with --no-color or NO_COLOR, else when stdout is a terminal. */
export function shouldUseColor(flag: boolean | undefined, env: NodeJS.ProcessEnv, stream: NodeJS.WritableStream): boolean {
  if (flag === false) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0") return true;
  return Boolean((stream as NodeJS.WriteStream).isTTY);
}

export function paint(color: boolean): ChalkInstance {
  return new Chalk({ level: color ? 1 : 0 });
}

export function writeLine(stream: NodeJS.WritableStream, line = ""): void {
  stream.write(`${line}\n`);
}
