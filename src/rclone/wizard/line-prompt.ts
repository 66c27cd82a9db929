import readline from "node:readline";
import { Writable } from "node:stream";
import { checkAnswer, PromptInterruptedError, type Prompt } from "./prompt.js";

/*
 * A line-at-a-time terminal prompt. Lines are queued as they arrive, so a
 * pasted block (rclone authorize's marker lines plus the token) is read line
 * by line instead of losing everything after the first Enter, and a script
 * typing text + Enter can drive it.
 */

export interface LinePrompt extends Prompt {
  close(): void;
}

export function createLinePrompt(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, signal?: AbortSignal): LinePrompt {
  let muted = false;
  const echo = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      if (!muted) output.write(chunk);
      done();
    },
  });
  const terminal = Boolean((input as { isTTY?: boolean }).isTTY);
  const rl = readline.createInterface({ input, output: echo, terminal });
  const lines: string[] = [];
  const waiters: Array<{ resolve: (line: string) => void; reject: (error: Error) => void }> = [];
  let stopped: PromptInterruptedError | undefined;

  const stop = (error: PromptInterruptedError) => {
    stopped ??= error;
    for (const waiter of waiters.splice(0)) waiter.reject(stopped);
  };
  rl.on("line", (line) => {
    const waiter = waiters.shift();
    if (waiter) waiter.resolve(line);
    else lines.push(line);
  });
  rl.on("SIGINT", () => stop(new PromptInterruptedError("interrupt")));
  rl.on("close", () => stop(new PromptInterruptedError("end-of-input")));
  signal?.addEventListener("abort", () => stop(new PromptInterruptedError("interrupt")), { once: true });

  const nextLine = (): Promise<string> => {
    const queued = lines.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (stopped) return Promise.reject(stopped);
    return new Promise((resolve, reject) => waiters.push({ resolve, reject }));
  };

  return {
    async ask(question) {
      for (;;) {
        rl.setPrompt(question.message);
        rl.prompt();
        muted = Boolean(question.secret);
        let line: string;
        try {
          line = await nextLine();
        } finally {
          if (muted) output.write("\n");
          muted = false;
        }
        const { answer, reason } = checkAnswer(question, line);
        if (reason === undefined) return answer;
        output.write(`${reason}\n`);
      }
    },
    close() {
      rl.close();
    },
  };
}
