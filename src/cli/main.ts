import { Command, CommanderError, Option } from "commander";
import { InterruptedError, UserError } from "../domain.js";
import { ConfigError, createContext, type GlobalOptions, type IO } from "./bootstrap.js";
import { paint, shouldUseColor, writeLine } from "./output.js";
import { COMMANDS, type CommandSpec } from "./registry.js";
import { messageOf } from "../lib/errors.js";
import { packageVersion } from "../lib/version.js";

const EXIT_OK = 0;
const EXIT_FAILURE = 1;
const EXIT_USAGE = 2;
const EXIT_INTERRUPTED = 130;

/** Builds the commander program; each command module is imported only when run. */
export function buildProgram(io: IO, setExit: (code: number) => void): Command {
  const program = new Command("scanarr")
    .description(
      "Scan-trigger service and toolkit for Plex, Jellyfin and Emby: webhooks, manual scans, cloud-drive monitoring, direct scans, rclone remotes.",
    )
    .version(packageVersion(), "-V, --version")
    .addOption(
      new Option("--install-dir <dir>", "install directory holding config/ and data/")
        .env("SCANARR_INSTALL_DIR")
        .default(undefined, "the current directory"),
    )
    .option("--config <file>", "config file (default: <install-dir>/config/config.json)")
    .addOption(new Option("--log-level <level>", "log level").choices(["debug", "info", "warn", "error", "silent"]).default("info"))
    .addOption(
      new Option("--log-format <format>", "log format: pretty for terminals, json for log collectors")
        .choices(["pretty", "json"])
        .default("pretty"),
    )
    .option("--no-color", "disable colours (NO_COLOR is honoured too)")
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });

  const groups = new Map<string, Command>();
  for (const spec of COMMANDS) {
    const parent = spec.group ? (groups.get(spec.group) ?? addGroup(program, groups, spec.group)) : program;
    const command = parent.command(spec.name).description(spec.description).exitOverride();
    spec.configure?.(command);
    command.action(async (...args: unknown[]) => {
      const cmd = args[args.length - 1] as Command;
      setExit(await runCommand(spec, cmd, args.slice(0, -2), io));
    });
  }
  return program;
}

function addGroup(program: Command, groups: Map<string, Command>, name: string): Command {
  const descriptions: Record<string, string> = {
    config: "check or show the configuration",
    remote: "rclone remotes for the cloud drive (remote create)",
  };
  const group = program
    .command(name)
    .description(descriptions[name] ?? name)
    .exitOverride();
  groups.set(name, group);
  return group;
}

async function runCommand(spec: CommandSpec, cmd: Command, positional: unknown[], io: IO): Promise<number> {
  const ctx = await createContext(cmd.optsWithGlobals<GlobalOptions>(), io, spec.config);
  return spec.run({ ...cmd.opts(), args: positional }, ctx);
}

/** Runs the CLI and returns the exit code; the one error boundary of scanarr. */
export async function main(argv: string[], io: IO): Promise<number> {
  let code = EXIT_OK;
  const program = buildProgram(io, (c) => (code = c));
  try {
    await program.parseAsync(argv, { from: "user" });
    return code;
  } catch (error) {
    return reportError(error, io);
  }
}

function reportError(error: unknown, io: IO): number {
  const c = paint(shouldUseColor(undefined, io.env, io.stderr));
  if (error instanceof CommanderError) {
    if (error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.code === "commander.help") return EXIT_OK;
    return EXIT_USAGE;
  }
  if (error instanceof ConfigError) {
    writeLine(io.stderr, c.red(`error: ${error.message}`));
    for (const warning of error.warnings) writeLine(io.stderr, c.yellow(`warning: ${warning}`));
    return EXIT_USAGE;
  }
  if (error instanceof UserError) {
    writeLine(io.stderr, c.red(`error: ${error.message}`));
    return error.exitCode;
  }
  if (error instanceof InterruptedError) {
    // On a new line: the interrupted prompt or progress line is still open.
    writeLine(io.stderr, `\n${error.message}`);
    return EXIT_INTERRUPTED;
  }
  const message = messageOf(error);
  writeLine(io.stderr, c.red(`error: ${message}`));
  if (io.env.SCANARR_DEBUG && error instanceof Error && error.stack) writeLine(io.stderr, error.stack);
  else writeLine(io.stderr, "(set SCANARR_DEBUG=1 to see the stack)");
  return EXIT_FAILURE;
}

function isEntryPoint(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  return /(?:^|[\\/])(?:main\.(?:ts|js)|scanarr(?:\.js)?)$/.test(entry);
}

if (isEntryPoint()) {
  const controller = new AbortController();
  let interrupted = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    interrupted += 1;
    if (interrupted > 1) process.exit(EXIT_INTERRUPTED);
    // The command's logger announces it (createContext), in the log format asked for.
    controller.abort(signal);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const io: IO = {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    signal: controller.signal,
    script: process.argv[1],
  };
  const code = await main(process.argv.slice(2), io);
  process.exit(code);
}
