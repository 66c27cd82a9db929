import { existsSync } from "node:fs";
import { describeReadError, readTextFile } from "../lib/text-file.js";
import path from "node:path";
import { parse } from "yaml";
import { hashPassword } from "../auth/password-hash.js";
import { generateServerPass } from "../config/defaults.js";
import { UserError } from "../domain.js";
import { readAutopulse } from "../import/autopulse.js";
import { readAutoscan } from "../import/autoscan.js";
import { buildConfig } from "../import/build.js";
import { isObject, type JsonObject } from "../import/read-doc.js";
import { writeFileAtomic } from "../lib/atomic-write.js";
import type { CommandContext } from "./context.js";
import { paint, writeLine } from "./output.js";
import { messageOf } from "../lib/errors.js";

export interface ImportOptions {
  /** Positional arguments as the CLI shell passes them: [kind, file]. */
  args?: unknown[];
  output?: string;
  force?: boolean;
}

const READERS: Record<string, (doc: JsonObject) => ReturnType<typeof readAutoscan>> = { autoscan: readAutoscan, autopulse: readAutopulse };

/** `scanarr import autoscan|autopulse <file>`: writes the equivalent scanarr config and lists what it could not convert. */
export async function run(options: ImportOptions, ctx: CommandContext): Promise<number> {
  const [kind, source] = (options.args ?? []).map(String);
  const read = kind === undefined ? undefined : READERS[kind];
  if (read === undefined || source === undefined) throw new UserError("usage: scanarr import autoscan|autopulse <file>", 2);
  const output = options.output ? path.resolve(options.output) : ctx.paths.configFile;
  if (existsSync(output) && !options.force) {
    throw new UserError(`${output} already exists; nothing written (pass --force to replace it, or --output <file>)`, 1);
  }
  const built = await buildConfig(read(await readDocument(source)), { pass: generateServerPass(), hashPassword });
  await writeFileAtomic(output, `${JSON.stringify(built.config, null, 2)}\n`, { mode: 0o600, forceMode: true });
  const c = paint(ctx.color);
  writeLine(ctx.stdout, c.green(`Wrote ${output} (mode 0600) from ${kind} config ${source}.`));
  for (const line of built.converted) writeLine(ctx.stdout, `  converted: ${line}`);
  if (built.notConverted.length > 0) {
    writeLine(ctx.stdout, c.yellow(`Not converted (${built.notConverted.length}):`));
    for (const line of built.notConverted) writeLine(ctx.stdout, `  - ${line}`);
  }
  writeLine(ctx.stdout, `Check it with: scanarr --config ${output} config check`);
  return 0;
}

async function readDocument(file: string): Promise<JsonObject> {
  if (/\.toml$/i.test(file)) throw new UserError(`${file}: TOML is not read; convert it to YAML or JSON first (the keys stay the same)`, 1);
  const text = await readTextFile(file).catch((error: unknown) => {
    throw new UserError(`cannot read ${file}: ${describeReadError(error)}`, 1);
  });
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (error) {
    throw new UserError(`${file} is not valid YAML: ${messageOf(error)}`, 1);
  }
  if (!isObject(doc)) throw new UserError(`${file}: the top level must be a mapping of settings`, 1);
  return doc;
}
