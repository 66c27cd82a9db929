import type { Config } from "../config/types.js";
import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import type { FileCheckPolicy } from "../queue/file-checks.js";
import { createRcClient, type RcClient, type RcState } from "../rclone/rc-client.js";
import { createVfsRefresher } from "../rclone/vfs-refresh.js";
import { type AnchorMonitor, type AnchorStatus, anchorsOf, createAnchorMonitor } from "./anchors.js";
import { createFileChecker, type FileChecker } from "./file-check.js";
import { AUTO_FILE_CHECKS, createFileCheckScope, scopeFileChecker } from "./file-check-scope.js";
import { createPathProbe, type PathProbe } from "./path-probe.js";

/** Everything `serve` needs to never scan a missing mount, built from the config. */
export interface MountSafety {
  probe: PathProbe;
  anchors: AnchorMonitor;
  /** Undefined when SERVER_MAX_FILE_CHECKS is 0 (file checks off). */
  files: FileChecker | undefined;
  /** Undefined unless RCLONE.RC_CACHE_REFRESH.ENABLED; its `state` is for /health. */
  rc: RcClient | undefined;
  /** For /health and pages: the last anchor check and the remote control's state, without touching a mount. */
  status(): MountSafetyStatus;
  close(): Promise<void>;
}

export interface MountSafetyStatus {
  /** Undefined before the first check. */
  anchors: AnchorStatus | undefined;
  rclone: RcState | "off";
}

export interface MountSafetyOptions {
  logger: Logger;
  clock: Clock;
  /** Bound of one path check (default 5 s). */
  checkTimeoutMs?: number;
  /**
   * The library folders holding a path (LibraryCatalog.libraryRootsOf): with
   * SERVER_MAX_FILE_CHECKS unset, only files under one on this machine are
   * checked. Without it, automatic checks look at every file.
   */
  libraryRootsOf?: (path: string) => string[] | undefined;
}

export function createMountSafety(config: Config, options: MountSafetyOptions): MountSafety {
  const { logger, clock } = options;
  const probe = createPathProbe({ timeoutMs: options.checkTimeoutMs ?? 5_000, clock, logger });
  const anchors = createAnchorMonitor({ anchors: anchorsOf(config), probe, logger, clock });
  const settings = config.RCLONE.RC_CACHE_REFRESH;
  const rc = settings.ENABLED
    ? createRcClient({ url: settings.RC_URL, user: settings.RC_USER, pass: settings.RC_PASS, logger })
    : undefined;
  const refresh = rc
    ? {
        refresher: createVfsRefresher({ client: rc, ...(settings.FS ? { fs: settings.FS } : {}), clock, logger }),
        remoteMappings: settings.FILE_EXISTS_TO_REMOTE_MAPPINGS,
      }
    : undefined;
  const existMappings = config.SERVER_FILE_EXIST_PATH_MAPPINGS;
  const checker =
    config.SERVER_MAX_FILE_CHECKS !== 0 ? createFileChecker({ probe, existMappings, ...(refresh ? { refresh } : {}), logger }) : undefined;
  const rootsOf = options.libraryRootsOf;
  const scope =
    config.SERVER_MAX_FILE_CHECKS === undefined && rootsOf
      ? createFileCheckScope({ probe, existMappings, rootsOf, logger, now: () => clock.now() })
      : undefined;
  return {
    probe,
    anchors,
    files: checker && scope ? scopeFileChecker(checker, scope) : checker,
    rc,
    status: () => ({ anchors: anchors.current(), rclone: rc ? rc.state : "off" }),
    close: () => probe.close(),
  };
}

/**
 * The queue's file-check policy from SERVER_MAX_FILE_CHECKS (rounds in all;
 * 0 = no checks: undefined; unset: AUTO_FILE_CHECKS, the checker narrowed to
 * local library folders), SERVER_FILE_CHECK_DELAY (seconds between rounds)
 * and SERVER_SCAN_FOLDER_ON_FILE_EXISTS_EXHAUSTION.
 */
export function fileCheckPolicyOf(config: Config): FileCheckPolicy | undefined {
  if (config.SERVER_MAX_FILE_CHECKS === 0) return undefined;
  return {
    maxChecks: config.SERVER_MAX_FILE_CHECKS ?? AUTO_FILE_CHECKS,
    delayMs: config.SERVER_FILE_CHECK_DELAY * 1000,
    scanFolderOnExhaustion: config.SERVER_SCAN_FOLDER_ON_FILE_EXISTS_EXHAUSTION,
  };
}

/**
 * The start's log line on the file checks: off, on for every file, or
 * automatic. An automatic start looks at no folder yet (the probe child
 * starts at the first path check): each library folder's answer is logged
 * the first time a file under it is checked (file-check-scope.ts).
 */
export function reportFileChecks(config: Config, logger: Logger): void {
  const max = config.SERVER_MAX_FILE_CHECKS;
  const every = `${max ?? AUTO_FILE_CHECKS} rounds ${config.SERVER_FILE_CHECK_DELAY} s apart`;
  if (max === 0) logger.info("file checks off (SERVER_MAX_FILE_CHECKS is 0): scans wait for the quiet time alone");
  else if (max !== undefined) logger.info(`file checks on for every scan's files (SERVER_MAX_FILE_CHECKS is ${max}): ${every}`);
  else
    logger.info(
      `file checks automatic (SERVER_MAX_FILE_CHECKS unset): on for files whose library folder is on this machine (${every}), ` +
        "off elsewhere; each library folder's answer is logged when a file under it is first checked",
    );
}
