/** rclone crypt names: options from rclone.conf and the name cipher. */
export { createNameCipher, type NameCipher } from "./cipher.js";
export { CryptConfigError, CryptNameError } from "./errors.js";
export { type CryptOptions, cryptOptionsFromRemote, type FilenameEncryption } from "./options.js";
