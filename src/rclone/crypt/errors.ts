/** A name that is not a valid encrypted (or plain) name for this crypt remote; the caller skips it. */
export class CryptNameError extends Error {
  override name = "CryptNameError";
  constructor(
    readonly cryptName: string,
    readonly reason: string,
  ) {
    super(`cannot decode the crypt name ${JSON.stringify(cryptName)}: ${reason}`);
  }
}

/** An rclone.conf [crypt] section that cannot be used; `key` names the option at fault. */
export class CryptConfigError extends Error {
  override name = "CryptConfigError";
  constructor(
    readonly key: string,
    reason: string,
  ) {
    super(`${key}: ${reason}`);
  }
}
