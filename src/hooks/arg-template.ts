/**
 * The argument template of a command target (TARGETS[].COMMAND): the program
 * first, then its arguments. `{folder}` is replaced by the folder to scan
 * wherever it appears in an element; an element that is exactly `{file}`
 * becomes one argument per file the request named (none when it named no
 * file). Each value stays one argument, whatever it holds: nothing is ever
 * given to a shell.
 */
export const ARG_PLACEHOLDERS = ["{folder}", "{file}"] as const;

/** The program and its arguments for one scan. */
export function expandArgTemplate(template: readonly string[], folder: string, files: readonly string[]): { file: string; args: string[] } {
  const [program = "", ...rest] = template;
  const args = rest.flatMap((element) => (element === "{file}" ? [...files] : [element.replaceAll("{folder}", folder)]));
  return { file: program, args };
}

/**
 * What makes a template unusable, each problem starting with where it is
 * (`[2]: …`, or `: …` for the whole list), for config validation.
 */
export function commandTemplateProblems(template: readonly string[]): string[] {
  const [program] = template;
  if (program === undefined || program.trim() === "") return [": must start with the program to run"];
  const problems: string[] = [];
  if (program.includes("{")) problems.push("[0]: the program cannot be a placeholder");
  template.forEach((element, i) => {
    if (i === 0) return;
    if (element !== "{file}" && element.includes("{file}")) {
      problems.push(`[${i}]: {file} must be an element of its own (each file becomes one argument)`);
    }
    for (const found of element.match(/\{[A-Za-z_]+\}/g) ?? []) {
      if (!(ARG_PLACEHOLDERS as readonly string[]).includes(found)) {
        problems.push(`[${i}]: unknown placeholder ${found}; the placeholders are ${ARG_PLACEHOLDERS.join(" and ")}`);
      }
    }
  });
  return problems;
}
