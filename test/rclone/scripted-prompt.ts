import { checkAnswer, type Prompt } from "../../src/rclone/wizard/prompt.js";

/** A prompt fed from a list of typed lines; records the questions asked and the reasons for re-asking. */
export function createScriptedPrompt(lines: string[]): Prompt & { asked: string[]; reasons: string[] } {
  const queue = [...lines];
  const asked: string[] = [];
  const reasons: string[] = [];
  return {
    asked,
    reasons,
    async ask(question) {
      for (;;) {
        asked.push(question.message.trim());
        const line = queue.shift();
        if (line === undefined) throw new Error(`script ran out of answers at "${question.message}" (asked: ${asked.join(" | ")})`);
        const { answer, reason } = checkAnswer(question, line);
        if (reason === undefined) return answer;
        reasons.push(reason);
      }
    },
  };
}
