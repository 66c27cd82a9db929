/** rclone's remote control did not answer (refused, timed out, not HTTP): go on without it. */
export class RcUnreachableError extends Error {
  override name = "RcUnreachableError";
}

/** rclone answered 401/403: RC_USER/RC_PASS are wrong or missing. */
export class RcAuthError extends Error {
  override name = "RcAuthError";
}

/** rclone refused the command itself (HTTP 4xx/5xx with its `error`), e.g. "need fs parameter". */
export class RcCommandError extends Error {
  override name = "RcCommandError";
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * One folder of a vfs/refresh failed although the call answered 200.
 * `missing` is true for rclone's "file does not exist": the folder is not in
 * the VFS (yet), so its parent is the one to refresh.
 */
export class RcDirError extends Error {
  override name = "RcDirError";
  constructor(
    readonly dir: string,
    readonly reason: string,
  ) {
    super(`${dir === "" ? "the remote root" : JSON.stringify(dir)}: ${reason}`);
  }

  get missing(): boolean {
    return /file does not exist|directory not found|not found/i.test(this.reason);
  }
}
