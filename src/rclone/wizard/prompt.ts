import { UserError } from "../../domain.js";

/** One question of the wizard, answered by one line of text. */
export interface Question {
  /** What is printed before the answer, e.g. "scope> ". */
  message: string;
  /** Taken when the answer is empty. */
  default?: string;
  /** Hide what is typed (passwords). */
  secret?: boolean;
  /** The command-line flag that answers this question, named when it is missing. */
  flag?: string;
  /** A reason to re-ask, or undefined to accept the (defaulted, trimmed) answer. */
  validate?: (answer: string) => string | undefined;
}

export interface Prompt {
  ask(question: Question): Promise<string>;
}

/** Ctrl-C (or end of input) at a prompt: the wizard stops and writes nothing. */
export class PromptInterruptedError extends Error {
  override name = "PromptInterruptedError";
  constructor(readonly reason: "interrupt" | "end-of-input") {
    super(reason === "interrupt" ? "interrupted" : "input ended before the wizard finished");
  }
}

/** Applies the default and the validation rule to one typed line. */
export function checkAnswer(question: Question, line: string): { answer: string; reason?: string } {
  const typed = question.secret ? line : line.trim();
  const answer = typed === "" && question.default !== undefined ? question.default : typed;
  const reason = question.validate?.(answer);
  return reason === undefined ? { answer } : { answer, reason };
}

/**
 * The prompt of `--non-interactive`: every question takes its default, and a
 * question without one is a usage error naming the flag that answers it.
 */
export function createNonInteractivePrompt(): Prompt {
  return {
    async ask(question) {
      if (question.default === undefined) {
        const what = question.flag ? `--${question.flag} is required` : `"${question.message.replace(/>\s*$/, "")}" needs an answer`;
        throw new UserError(`${what} with --non-interactive`, 2);
      }
      const { answer, reason } = checkAnswer(question, "");
      if (reason !== undefined) throw new UserError(`${question.flag ? `--${question.flag}` : question.message.trim()}: ${reason}`, 2);
      return answer;
    },
  };
}
