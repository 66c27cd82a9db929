import { Option, type Command } from "commander";
import type { ConfigUse } from "./bootstrap.js";
import type { CommandContext } from "./context.js";

/** Option values as commander gives them, plus the positional arguments as `args`. */
export type RawOptions = Record<string, unknown>;

/** One subcommand: its name, help, options and how to run it (its module is imported only then). */
export interface CommandSpec {
  name: string;
  group?: string;
  description: string;
  configure?: (command: Command) => void;
  /** How the command uses the config file (see ConfigUse); a missing file is an error when absent. */
  config?: ConfigUse;
  run(raw: RawOptions, ctx: CommandContext): Promise<number>;
}

interface CommandModule<O> {
  run(options: O, ctx: CommandContext): Promise<number>;
}

/**
 * Joins a command module, imported lazily, to the reader of its options, so
 * the module's option type is checked against what the reader builds.
 */
function lazy<O>(load: () => Promise<CommandModule<O>>, read: (raw: RawOptions) => O): CommandSpec["run"] {
  return async (raw, ctx) => (await load()).run(read(raw), ctx);
}

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
const flag = (value: unknown): boolean | undefined => (typeof value === "boolean" ? value : undefined);
const textOrFlag = (value: unknown): string | boolean | undefined => text(value) ?? flag(value);
const kindOf = (value: unknown): "file" | "folder" | undefined => (value === "file" || value === "folder" ? value : undefined);
const none = (): Record<string, never> => ({});
const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

export const COMMANDS: CommandSpec[] = [
  {
    name: "serve",
    description: "run the scan-trigger service in the foreground (webhooks, manual scans, drive monitoring)",
    // An empty PLEX_TOKEN does not stop serve (a default config runs the same on every run): serve names what is unmet and `setup`.
    config: { file: "create", require: ["server"] },
    run: lazy(() => import("./serve.js"), none),
  },
  {
    name: "init",
    description: "write a starting config (with notes on what to edit) and print the next steps",
    config: { file: "none" },
    run: lazy(() => import("./init.js"), none),
  },
  {
    name: "setup",
    description:
      "set up in one sitting: sign in to Plex, add Jellyfin/Emby, read the *arr apps, derive the mappings, connect the apps, run doctor",
    configure: (c) =>
      c
        .option("--plex-url <url>", "Plex server URL (PLEX_LOCAL_URL), instead of signing in")
        .option("--plex-token <token>", "Plex token of the server's admin account (PLEX_TOKEN)")
        .option("--plex-pin", "sign in with plex.tv (a 4-character code for plex.tv/link), also without a terminal")
        .option("--arr <url,api-key>", "an *arr app (Sonarr, Radarr, Lidarr, Readarr: recognised); repeat for each", collect)
        .option("--jellyfin <url,api-key>", "a Jellyfin server to scan too")
        .option("--emby <url,api-key>", "an Emby server to scan too")
        .option("--host <name>", "host name the *arr apps reach scanarr by (default: SERVER_IP, or this machine's name)")
        .option("-y, --yes", "ask nothing: accept the derived mappings, write the config and connect the apps"),
    config: { file: "none" },
    run: lazy(
      () => import("./setup.js"),
      (raw) => ({
        plexUrl: text(raw.plexUrl),
        plexToken: text(raw.plexToken),
        plexPin: flag(raw.plexPin),
        arr: Array.isArray(raw.arr) ? raw.arr.filter((a): a is string => typeof a === "string") : [],
        jellyfin: text(raw.jellyfin),
        emby: text(raw.emby),
        host: text(raw.host),
        yes: flag(raw.yes),
      }),
    ),
  },
  {
    name: "url",
    description: "print the full webhook URL (it contains SERVER_PASS) to paste into Sonarr, Radarr, Lidarr, Readarr",
    configure: (c) => c.option("--host <name>", "host name the *arr apps reach scanarr by (default: SERVER_IP, or this machine's name)"),
    config: { file: "required", require: ["server"] },
    run: lazy(
      () => import("./url.js"),
      (raw) => ({ host: text(raw.host) }),
    ),
  },
  {
    name: "status",
    description: "say where the requests for a file or folder went: received, mapped, scanned, confirmed, or what they wait for",
    configure: (c) =>
      c
        .argument("<path>", "a file or folder, as Sonarr/Radarr, the mount or the media server name it")
        .addOption(new Option("--json", "print JSON for scripts")),
    config: { file: "optional" },
    run: lazy(
      () => import("./status.js"),
      (raw) => ({ args: Array.isArray(raw.args) ? raw.args : [], json: flag(raw.json) }),
    ),
  },
  {
    name: "connect",
    description:
      "add or update the webhook to this scanarr in Sonarr, Radarr, Lidarr or Readarr (the app's own test proves it); --list shows which apps point here",
    configure: (c) =>
      c
        .argument("[app]", "sonarr, radarr, lidarr or readarr (recognised from the app when left out)")
        .option("--url <url>", "the app's address, e.g. http://localhost:8989 (asked for on a terminal)")
        .option("--api-key <key>", "the app's API key, from its Settings > General (asked for on a terminal)")
        .option("--host <name>", "host name the app reaches scanarr by (default: SERVER_IP, or this machine's name), as for `scanarr url`")
        .option("--name <name>", "the connection's name in the app", "scanarr")
        .option("--no-test", "save without the app's test of the URL, even when scanarr is running")
        .option(
          "--list",
          "show which apps point at this scanarr and with which events (the apps connect and setup remembered, or those given with --arr)",
        )
        .option(
          "--arr <url,key>",
          "an app to look at with --list: its URL, a comma, its API key (repeatable)",
          (value: string, previous: string[]) => [...previous, value],
          [],
        ),
    config: { file: "required", require: ["server"] },
    run: lazy(
      () => import("./connect.js"),
      (raw) => ({
        kind: Array.isArray(raw.args) ? text(raw.args[0]) : undefined,
        url: text(raw.url),
        apiKey: text(raw.apiKey),
        host: text(raw.host),
        name: text(raw.name),
        test: flag(raw.test),
        list: flag(raw.list),
        arr: Array.isArray(raw.arr) ? raw.arr.filter((v): v is string => typeof v === "string") : [],
      }),
    ),
  },
  {
    name: "map",
    description: "show, step by step, how paths are rewritten and which library of each target would scan them",
    configure: (c) =>
      c
        .argument("<path...>", "paths as Sonarr/Radarr, the mount or the drive name them")
        .addOption(
          new Option("--kind <kind>", "treat every path as a file or a folder, as a webhook would say").choices(["file", "folder"]),
        )
        .addOption(
          new Option(
            "--source <name>",
            "trace as this source's request: its SOURCES rewrites and filters (sonarr, manual, a /triggers/ name, watch, drive, ...)",
          ),
        )
        .addOption(new Option("--json", "print JSON for scripts")),
    config: { file: "required" },
    run: lazy(
      () => import("./map.js"),
      (raw) => ({
        args: Array.isArray(raw.args) ? raw.args : [],
        kind: kindOf(raw.kind),
        source: text(raw.source),
        json: flag(raw.json),
      }),
    ),
  },
  {
    name: "doctor",
    description:
      "check the set-up against the real servers: every target and its credential, mappings, anchors, rclone, database, drive, port; exit 0 when all pass",
    configure: (c) => c.addOption(new Option("--json", "print JSON for scripts")),
    config: { file: "required" },
    run: lazy(
      () => import("./doctor.js"),
      (raw) => ({ json: flag(raw.json) }),
    ),
  },
  {
    name: "authorize",
    description: "authorize access to the cloud drive (OAuth 2.0, works over SSH)",
    configure: (c) => c.option("--port <n>", "port on 127.0.0.1 for the browser redirect after consent (0 = any free port)", "0"),
    run: lazy(
      () => import("./authorize.js"),
      (raw) => ({ port: text(raw.port) }),
    ),
    config: { file: "required" },
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
    run: lazy(
      () => import("./scan.js"),
      (raw) => ({
        directory: text(raw.directory),
        section: text(raw.section),
        docker: textOrFlag(raw.docker),
        user: text(raw.user),
        sudo: flag(raw.sudo),
        timeout: text(raw.timeout),
        dryRun: flag(raw.dryRun),
        list: flag(raw.list),
      }),
    ),
    config: { file: "optional" },
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
    run: lazy(
      () => import("./remote-create.js"),
      (raw) => ({
        name: Array.isArray(raw.args) ? text(raw.args[0]) : undefined,
        rcloneConfig: text(raw.rcloneConfig),
        nonInteractive: flag(raw.nonInteractive),
        scope: text(raw.scope),
        token: text(raw.token),
        serviceAccountFile: text(raw.serviceAccountFile),
        teamDrive: text(raw.teamDrive),
        clientId: text(raw.clientId),
        clientSecret: text(raw.clientSecret),
        rootFolderId: text(raw.rootFolderId),
      }),
    ),
    config: { file: "optional" },
  },
  {
    name: "passwd",
    description: "set the login for /triggers/* and the dashboard (stores an argon2id hash in the config)",
    configure: (c) =>
      c
        .option("-u, --username <name>", "login name (default: the current SERVER_USERNAME)")
        .option("--clear", "remove the login: only /<SERVER_PASS>/… URLs work afterwards"),
    config: { file: "required" },
    run: lazy(
      () => import("./passwd.js"),
      (raw) => ({ username: text(raw.username), clear: flag(raw.clear) }),
    ),
  },
  {
    name: "import",
    description: "write a scanarr config from an autoscan config.yml or an autopulse config, listing what cannot be converted",
    configure: (c) =>
      c
        .argument("<kind>", "autoscan or autopulse")
        .argument("<file>", "the other tool's config file (YAML or JSON)")
        .option("-o, --output <file>", "where to write (default: the config file, --config)")
        .option("--force", "overwrite an existing file"),
    config: { file: "none" },
    run: lazy(
      () => import("./import.js"),
      (raw) => ({ args: Array.isArray(raw.args) ? raw.args : [], output: text(raw.output), force: flag(raw.force) }),
    ),
  },
  {
    name: "check",
    group: "config",
    description: "validate the config file; exit 0 when valid, 2 when not",
    config: { file: "required", require: ["server", "plex"] },
    run: lazy(() => import("./config-check.js"), none),
  },
  {
    name: "show",
    group: "config",
    description: "print the effective config (file and SCANARR_ variables) with secrets masked and where each value came from",
    configure: (c) => c.addOption(new Option("--json", "print JSON for scripts")),
    config: { file: "required" },
    run: lazy(
      () => import("./config-show.js"),
      (raw) => ({ json: flag(raw.json) }),
    ),
  },
];
