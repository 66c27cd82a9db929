import path from "node:path";

/** Where scanarr keeps its files under one install directory. */
export interface InstallPaths {
  installDir: string;
  configFile: string;
  dataDir: string;
  /** SQLite database holding the scan queue and the drive folder cache. */
  database: string;
  /** OAuth token of the drive monitor (mode 0600). */
  tokenFile: string;
  /** Tokens refreshed for CLOUD.RCLONE_REMOTE's own client (mode 0600); rclone.conf is never written. */
  remoteTokenFile: string;
}

export function resolveInstallPaths(installDir: string, configFile?: string): InstallPaths {
  const root = path.resolve(installDir);
  const dataDir = path.join(root, "data");
  return {
    installDir: root,
    configFile: configFile ? path.resolve(configFile) : path.join(root, "config", "config.json"),
    dataDir,
    database: path.join(dataDir, "scanarr.db"),
    tokenFile: path.join(dataDir, "drive-token.json"),
    remoteTokenFile: path.join(dataDir, "drive-token-rclone.json"),
  };
}
