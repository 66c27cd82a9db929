import { Option, type Command } from "commander";
import type { CommandContext } from "./context.js";

export interface CommandModule {
  run(options: Record<string, unknown>, ctx: CommandContext): Promise<number>;
}

/** One subcommand: its name, help, options and the module that runs it (imported lazily). */
export interface CommandSpec {
  name: string;
  group?: string;
  description: string;
  configure?: (command: Command) => void;
  /** false: the command runs without reading (or creating) the config file. */
  loadsConfig?: false;
  load: () => Promise<CommandModule>;
}

const asModule = (m: unknown) => m as CommandModule;

export const COMMANDS: CommandSpec[] = [
  {
    name: "serve",
    description: "run the scan-trigger service in the foreground (webhooks, manual scans, drive monitoring)",
    load: async () => asModule(await import("./serve.js")),
  },
  {
    name: "authorize",
    description: "authorize access to the cloud drive (OAuth 2.0, works over SSH)",
    configure: (c) => c.option("--port <n>", "port on 127.0.0.1 for the browser redirect after consent (0 = any free port)", "0"),
    load: async () => asModule(await import("./authorize.js")),
  },
  {
    name: "scan",
    description: "run Plex Media Scanner on a folder now, bypassing the service",
    configure: (c) =>
      c
        .option("-d, --directory <path>", "folder to scan: media-server, mount or drive path")
        .option("-s, --section <id>", "library section id (found from the path when omitted)")
        .option("--docker [container]", "run the scanner inside this container (default: DOCKER_NAME)")
        .option("--no-docker", "do not use Docker even if USE_DOCKER is set")
        .option("-u, --user <name>", "user to run the scanner as (default: PLEX_USER)")
        .option("--sudo", "run the scanner with sudo -u <user> (default: USE_SUDO)")
        .option("--no-sudo", "do not use sudo even if USE_SUDO is set")
        .option("--timeout <seconds>", "stop the scanner after this many seconds; 0 for no limit", "3600")
        .option("--dry-run", "print the command without running it")
        .option("--list", "print the libraries (id, type, name, folders) and exit"),
    load: async () => asModule(await import("./scan.js")),
  },
  {
    name: "create",
    group: "remote",
    description: "create an rclone remote for the cloud drive, as `rclone config` would",
    configure: (c) =>
      c
        .argument("[name]", "name of the remote")
        .option("--rclone-config <file>", "rclone.conf to edit (default: RCLONE_CONFIG, then rclone's search order)")
        .option("--non-interactive", "no prompts; answers come from the flags")
        .option("--scope <scope>", "drive | drive.readonly | drive.file | drive.appfolder | drive.metadata.readonly (default drive)")
        .option("--token <token>", "token JSON or the text `rclone authorize` printed")
        .option("--service-account-file <path>", "service-account JSON key instead of a token")
        .option("--team-drive <id>", "shared drive id")
        .option("--client-id <id>", "your own OAuth client id")
        .option("--client-secret <secret>", "its client secret")
        .option("--root-folder-id <id>", "start from this folder"),
    load: async () => asModule(await import("./remote-create.js")),
  },
  {
    name: "passwd",
    description: "set the login for /triggers/* and the dashboard (stores an argon2id hash in the config)",
    configure: (c) =>
      c
        .option("-u, --username <name>", "login name (default: the current SERVER_USERNAME)")
        .option("--clear", "remove the login: only /<SERVER_PASS>/… URLs work afterwards"),
    load: async () => asModule(await import("./passwd.js")),
  },
  {
    name: "import",
    description: "write a scanarr config from an autoscan config.yml or an autopulse config, listing what cannot be converted",
    loadsConfig: false,
    configure: (c) =>
      c
        .argument("<kind>", "autoscan or autopulse")
        .argument("<file>", "the other tool's config file (YAML or JSON)")
        .option("-o, --output <file>", "where to write (default: the config file, --config)")
        .option("--force", "overwrite an existing file"),
    load: async () => asModule(await import("./import.js")),
  },
  {
    name: "check",
    group: "config",
    description: "validate the config file; exit 0 when valid, 2 when not",
    load: async () => asModule(await import("./config-check.js")),
  },
  {
    name: "show",
    group: "config",
    description: "print the effective config with secrets masked",
    configure: (c) => c.addOption(new Option("--json", "print JSON for scripts")),
    load: async () => asModule(await import("./config-show.js")),
  },
];
