import { UserError } from "../domain.js";

/** One choice of a select or checkbox question. */
export interface Choice<T> {
  name: string;
  value: T;
  description?: string;
  checked?: boolean;
}

/**
 * The questions the set-up asks. Each names the flag that answers it, so
 * the non-interactive prompt can say which flag is missing instead of
 * waiting for a terminal that is not there.
 */
export interface SetupPrompt {
  select<T>(question: { message: string; choices: Array<Choice<T>>; default?: T; flag: string }): Promise<T>;
  checkbox<T>(question: { message: string; choices: Array<Choice<T>>; flag: string }): Promise<T[]>;
  confirm(question: { message: string; default?: boolean; flag: string }): Promise<boolean>;
  input(question: { message: string; default?: string; validate?: (value: string) => string | true; flag: string }): Promise<string>;
  password(question: { message: string; validate?: (value: string) => string | true; flag: string }): Promise<string>;
}

/** Without a terminal every question is a usage error naming its flag (exit 2), never a wait. */
export function createNoTerminalPrompt(): SetupPrompt {
  const refuse = (question: { message: string; flag: string }): never => {
    throw new UserError(`no terminal to ask "${question.message.replace(/[?:]\s*$/, "")}": pass ${question.flag}`, 2);
  };
  return {
    select: async (q) => refuse(q),
    checkbox: async (q) => refuse(q),
    confirm: async (q) => refuse(q),
    input: async (q) => refuse(q),
    password: async (q) => refuse(q),
  };
}
