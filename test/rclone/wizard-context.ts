import { parseConf } from "../../src/rclone/conf-document.js";
import type { Context } from "../../src/rclone/wizard/context.js";
import { createScriptedPrompt } from "./scripted-prompt.js";

/** A wizard Context for tests: scripted answers, captured output, nothing reaching Google. */
export function buildTestContext(lines: string[], overrides: Partial<Context> = {}) {
  const prompt = createScriptedPrompt(lines);
  let printed = "";
  const ctx: Context = {
    prompt,
    print: (text) => {
      printed += text;
    },
    interactive: true,
    doc: parseConf(""),
    password: undefined,
    flags: {},
    env: {},
    home: "/nonexistent-home",
    platform: "linux",
    configDir: "/tmp",
    runAuthorize: async () => {
      throw new Error("no browser in tests");
    },
    listSharedDrives: async () => {
      throw new Error("no Drive API in this test");
    },
    generatePassword: () => "generated-password-123",
    ...overrides,
  };
  return { ctx, prompt, output: () => printed };
}
