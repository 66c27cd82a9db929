import { askLetter } from "./ask.js";
import type { Context } from "./context.js";

type Step = Pick<Context, "prompt" | "print" | "password">;

/** The "s) Set configuration password" menu; returns the new password (undefined = plain text). */
export async function runPasswordMenu(ctx: Step): Promise<string | undefined> {
  let password = ctx.password;
  for (;;) {
    if (password === undefined) {
      ctx.print(
        "\nYour configuration is not encrypted.\nIf you add a password, you will protect your login information to cloud services.\n",
      );
      const choice = await askLetter(ctx, "", [
        ["a", "Add Password"],
        ["q", "Quit to main menu"],
      ]);
      if (choice === "q") return password;
      password = await askNewPassword(ctx);
      ctx.print("Password set\n");
      continue;
    }
    ctx.print("\nYour configuration is encrypted.\n");
    const choice = await askLetter(ctx, "", [
      ["c", "Change Password"],
      ["u", "Unencrypt configuration"],
      ["q", "Quit to main menu"],
    ]);
    if (choice === "q") return password;
    if (choice === "u") password = undefined;
    else password = await askNewPassword(ctx);
  }
}

async function askNewPassword(ctx: Pick<Context, "prompt" | "print">): Promise<string> {
  for (;;) {
    ctx.print("Enter NEW configuration password:\n");
    const first = await ctx.prompt.ask({
      message: "password:",
      secret: true,
      validate: (answer) => (answer.trim() === "" ? "Password can't be empty." : undefined),
    });
    ctx.print("Confirm NEW configuration password:\n");
    const second = await ctx.prompt.ask({ message: "password:", secret: true });
    if (first === second) return first;
    ctx.print("Passwords do not match!\n");
  }
}
