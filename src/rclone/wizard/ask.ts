import { checkConfValue } from "../conf-rules.js";
import type { Context } from "./context.js";
import type { Question } from "./prompt.js";

type Io = Pick<Context, "prompt" | "print">;

export interface Choice {
  value: string;
  /** Help lines; the first is printed next to the number. */
  help: string[];
}

/** rclone's numbered list: ` 1 / help` then `   \ (value)`. */
export function formatChoices(choices: Choice[]): string {
  const width = String(choices.length).length;
  return choices
    .map((choice, index) => {
      const number = String(index + 1).padStart(width + 1);
      const pad = " ".repeat(width + 1);
      if (choice.help.length === 1) return `${number} / ${choice.help[0]}\n${pad} \\ (${choice.value})`;
      const [first, ...rest] = choice.help;
      const middle = rest.map((line, i) => `${i === 0 ? number : pad} | ${line}`);
      return [`${pad} / ${first}`, ...middle, `${pad} \\ (${choice.value})`].join("\n");
    })
    .join("\n");
}

function describeDefault(value: string | undefined, required: boolean): string {
  if (value !== undefined && value !== "") return `Press Enter for the default (${value}).`;
  return required ? "" : "Press Enter to leave empty.";
}

export interface ValueOptions {
  default?: string | undefined;
  required?: boolean;
  flag?: string;
  validate?: (answer: string) => string | undefined;
}

/** `Option <name>.`, its help, then `<name>> ` for a free value. */
export async function askValue(io: Io, option: string, help: string, options: ValueOptions = {}): Promise<string> {
  const hint = options.default
    ? describeDefault(options.default, false)
    : options.required
      ? "Enter a value."
      : "Enter a value. Press Enter to leave empty.";
  io.print(`\nOption ${option}.\n${help}\n${hint}\n`);
  return io.prompt.ask(valueQuestion(option, { ...options, default: options.default ?? (options.required ? undefined : "") }));
}

function valueQuestion(option: string, options: ValueOptions): Question {
  return {
    message: `${option}> `,
    ...(options.default !== undefined ? { default: options.default } : {}),
    ...(options.flag ? { flag: options.flag } : {}),
    validate: (answer) => {
      if (answer === "" && options.required) return "This value is required and it has no default.";
      return checkConfValue(answer) ?? options.validate?.(answer);
    },
  };
}

export interface ChoiceOptions extends ValueOptions {
  /** Accept text that is not one of the choices (rclone's "or type in your own value"). */
  allowOther?: boolean;
}

/** A numbered list answered by a number or a value. */
export async function askChoice(io: Io, option: string, help: string, choices: Choice[], options: ChoiceOptions = {}): Promise<string> {
  const hint = describeDefault(options.default, options.required ?? false);
  io.print(
    `\nOption ${option}.\n${help}\nChoose a number from below, or type in ${options.allowOther ? "your own value" : "one of the values"}.\n${hint ? `${hint}\n` : ""}${formatChoices(choices)}\n`,
  );
  const values = choices.map((choice) => choice.value);
  const answer = await io.prompt.ask(
    valueQuestion(option, {
      ...options,
      default: options.default ?? (options.required ? undefined : ""),
      validate: (typed) => {
        if (typed === "" || values.includes(typed) || /^\d+$/.test(typed)) {
          if (/^\d+$/.test(typed) && !values.includes(typed)) {
            return Number(typed) >= 1 && Number(typed) <= choices.length ? undefined : "No choices with this number.";
          }
          return options.validate?.(typed);
        }
        return options.allowOther
          ? options.validate?.(typed)
          : `This value must be one of: ${values.join(", ")} (or a number from 1 to ${choices.length}).`;
      },
    }),
  );
  return /^\d+$/.test(answer) && !values.includes(answer) ? choices[Number(answer) - 1]!.value : answer;
}

/** A letter menu: `y) Yes` lines, then `y/n> `; returns the letter. */
export async function askLetter(
  io: Io,
  title: string,
  items: Array<[string, string]>,
  defaultLetter?: string,
  flag?: string,
): Promise<string> {
  const lines = items.map(([letter, label]) => `${letter}) ${label}${letter === defaultLetter ? " (default)" : ""}`);
  io.print(`${title ? `${title}\n` : ""}${lines.join("\n")}\n`);
  const letters = items.map(([letter]) => letter);
  const answer = await io.prompt.ask({
    message: `${letters.join("/")}> `,
    ...(defaultLetter ? { default: defaultLetter } : {}),
    ...(flag ? { flag } : {}),
    validate: (typed) => {
      if (typed === "") return "This value is required and it has no default.";
      return letters.includes(typed.toLowerCase())
        ? undefined
        : `This value must be one of the following characters: ${letters.join(", ")}.`;
    },
  });
  return answer.toLowerCase();
}

export async function askYesNo(io: Io, title: string, defaultYes: boolean, flag?: string): Promise<boolean> {
  const answer = await askLetter(
    io,
    title,
    [
      ["y", "Yes"],
      ["n", "No"],
    ],
    defaultYes ? "y" : "n",
    flag,
  );
  return answer === "y";
}
