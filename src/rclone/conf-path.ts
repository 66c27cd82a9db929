import path from "node:path";

export interface ConfigPathInputs {
  /** Value of --rclone-config, when given. */
  flag?: string | undefined;
  env: NodeJS.ProcessEnv;
  home: string;
  platform: NodeJS.Platform;
  /** Folder of the rclone executable found on PATH, if any. */
  rcloneDir?: string | undefined;
  exists: (file: string) => boolean;
}

export interface ConfigPath {
  file: string;
  /** How it was chosen, for the "Using rclone config ..." line. */
  source: "flag" | "RCLONE_CONFIG" | "search" | "new";
}

export class InMemoryConfigError extends Error {
  override name = "InMemoryConfigError";
}

/** rclone treats these as "configuration is in memory only": nothing could be saved. */
function isInMemory(file: string): boolean {
  return file === "" || file === "/dev/null" || path.basename(file) === "notfound";
}

/** Finds rclone.conf in the order rclone itself uses. */
export function resolveRcloneConfigPath(inputs: ConfigPathInputs): ConfigPath {
  const explicit =
    inputs.flag !== undefined
      ? { file: inputs.flag, source: "flag" as const }
      : inputs.env.RCLONE_CONFIG !== undefined
        ? { file: inputs.env.RCLONE_CONFIG, source: "RCLONE_CONFIG" as const }
        : undefined;
  if (explicit) {
    if (isInMemory(explicit.file)) throw new InMemoryConfigError(`rclone config "${explicit.file}" means in memory only; give a real file`);
    return { file: path.resolve(explicit.file), source: explicit.source };
  }
  const join = inputs.platform === "win32" ? path.win32.join : path.posix.join;
  const xdg = inputs.env.XDG_CONFIG_HOME;
  const appData = inputs.platform === "win32" ? inputs.env.APPDATA : undefined;
  const candidates = [
    inputs.rcloneDir ? join(inputs.rcloneDir, "rclone.conf") : undefined,
    appData ? join(appData, "rclone", "rclone.conf") : undefined,
    xdg ? join(xdg, "rclone", "rclone.conf") : undefined,
    join(inputs.home, ".config", "rclone", "rclone.conf"),
    join(inputs.home, ".rclone.conf"),
  ].filter((file): file is string => file !== undefined);
  const found = candidates.find((file) => inputs.exists(file));
  if (found) return { file: found, source: "search" };
  const base = appData ?? xdg;
  return { file: base ? join(base, "rclone", "rclone.conf") : join(inputs.home, ".config", "rclone", "rclone.conf"), source: "new" };
}
