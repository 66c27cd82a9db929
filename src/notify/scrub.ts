import { createSecretMasker } from "../lib/mask.js";

/** Longest texts kept from an error or a problem in a message. */
const MAX_TEXT = 300;

const URL_IN_TEXT = /\b([a-z][a-z0-9+.-]*:\/\/)(?:[^\s/@"'<>]*@)?([^\s/?#"'<>]+)([^\s?#"'<>]*)(?:[?#][^\s"'<>]*)?/gi;

/**
 * Makes a free text (an error from a target, a drive problem) fit for a
 * message: the config's secrets masked wherever they appear, URLs without
 * credentials or query (where tokens travel), and a bounded length.
 */
export function createScrubber(secrets: readonly string[]): (text: string) => string {
  const mask = createSecretMasker(secrets, "****");
  return (text) => {
    const out = mask(text).replace(URL_IN_TEXT, (_all, scheme: string, host: string, path: string) => `${scheme}${host}${path}`);
    return out.length > MAX_TEXT ? `${out.slice(0, MAX_TEXT - 1)}…` : out;
  };
}
