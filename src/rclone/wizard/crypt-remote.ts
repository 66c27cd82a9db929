import { checkRemoteName } from "../conf-rules.js";
import { obscurePassword } from "../obscure.js";
import { askChoice, askLetter, askValue, askYesNo } from "./ask.js";
import type { Context } from "./context.js";

type Step = Pick<Context, "prompt" | "print" | "generatePassword">;

const FILENAME_ENCRYPTION = [
  { value: "standard", help: ["Encrypt the filenames.", "See the docs for the details."] },
  { value: "obfuscate", help: ["Very simple filename obfuscation."] },
  { value: "off", help: ["Don't encrypt the file names.", 'Adds a ".bin", or "suffix" extension only.'] },
];

/** Asks for a crypt remote over `base` (name, path, name encryption, passwords); returns its options. */
export async function configureCryptRemote(
  ctx: Step,
  base: string,
  current: Map<string, string> = new Map(),
): Promise<Map<string, string>> {
  const options = new Map<string, string>([["type", "crypt"]]);
  const remote = await askValue(
    ctx,
    "remote",
    "Remote to encrypt/decrypt.\nNormally should contain a ':' and a path, e.g. \"myremote:path/to/dir\".",
    {
      default: current.get("remote") ?? `${base}:encrypted`,
      validate: (answer) => (answer.includes(":") ? undefined : 'Give "remote:path", e.g. "gdrive:encrypted".'),
    },
  );
  options.set("remote", remote);
  const names = await askChoice(ctx, "filename_encryption", "How to encrypt the filenames.", FILENAME_ENCRYPTION, {
    default: current.get("filename_encryption") ?? "standard",
    required: true,
  });
  options.set("filename_encryption", names);
  if (names !== "off") {
    const folders = await askChoice(
      ctx,
      "directory_name_encryption",
      'Option to either encrypt directory names or leave them intact.\nNB If filename_encryption is "off" then this option will do nothing.',
      [
        { value: "true", help: ["Encrypt directory names."] },
        { value: "false", help: ["Don't encrypt directory names, leave them intact."] },
      ],
      { default: current.get("directory_name_encryption") ?? "true", required: true },
    );
    options.set("directory_name_encryption", folders);
  }
  const password = await choosePassword(ctx, "password", "Password or pass phrase for encryption.", false, current.get("password"));
  if (password) options.set("password", password);
  const salt = await choosePassword(
    ctx,
    "password2",
    "Password or pass phrase for salt.\nOptional but recommended.\nShould be different to the previous password.",
    true,
    current.get("password2"),
  );
  if (salt) options.set("password2", salt);
  return options;
}

/** rclone's ChoosePassword: type one, generate one, or (when optional) leave it blank. Returns it obscured. */
async function choosePassword(
  ctx: Step,
  option: string,
  help: string,
  optional: boolean,
  existing: string | undefined,
): Promise<string | undefined> {
  ctx.print(`\nOption ${option}.\n${help}\n`);
  const items: Array<[string, string]> = [
    ["y", "Yes, type in my own password"],
    ["g", "Generate random password"],
  ];
  if (existing) items.push(["k", "Keep the current password"]);
  else if (optional) items.push(["n", "No, leave this optional password blank"]);
  const choice = await askLetter(ctx, "Choose an alternative below.", items, existing ? "k" : optional ? "n" : undefined);
  if (choice === "k") return existing;
  if (choice === "n") return undefined;
  if (choice === "y") return obscurePassword(await typePassword(ctx));
  for (;;) {
    const bits = await ctx.prompt.ask({
      message: "Bits> ",
      default: "128",
      validate: (answer) =>
        /^\d+$/.test(answer) && Number(answer) >= 64 && Number(answer) <= 1024 ? undefined : "Enter a number of bits from 64 to 1024.",
    });
    const generated = ctx.generatePassword(Number(bits));
    ctx.print(
      `Your password is: ${generated}\nKeep it somewhere safe: only an obscured copy goes into rclone.conf, and your files cannot be read without it.\n`,
    );
    if (await askYesNo(ctx, "Use this password?", true)) return obscurePassword(generated);
  }
}

async function typePassword(ctx: Pick<Context, "prompt" | "print">): Promise<string> {
  for (;;) {
    ctx.print("Enter the password:\n");
    const first = await ctx.prompt.ask({
      message: "password:",
      secret: true,
      validate: (answer) => (answer.trim() === "" ? "The password must not be empty." : undefined),
    });
    ctx.print("Confirm the password:\n");
    const second = await ctx.prompt.ask({ message: "password:", secret: true });
    if (first === second) return first;
    ctx.print("Passwords do not match!\n");
  }
}

/** Offers a crypt remote over the drive remote just created; returns its name and options. */
export async function offerCryptRemote(ctx: Step, base: string, existing: string[]): Promise<[string, Map<string, string>] | undefined> {
  if (!(await askYesNo(ctx, `\nCreate an encrypted (crypt) remote on top of "${base}"?`, false))) return undefined;
  ctx.print("\nEnter name for the encrypted remote.\n");
  const name = await ctx.prompt.ask({
    message: "name> ",
    default: `${base}_crypt`,
    validate: (answer) => checkRemoteName(answer, existing),
  });
  return [name, await configureCryptRemote(ctx, base)];
}
