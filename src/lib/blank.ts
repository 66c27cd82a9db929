/** A character that is not white space (the same set `trim()` removes). */
const NOT_BLANK = /\S/;

/**
 * Whether `text` is empty or only white space, without the copy `trim()`
 * makes: for the hot paths (a webhook's body, each path of a 25,000-entry
 * file list); `text.trim() === ""` says the same elsewhere.
 */
export function isBlank(text: string): boolean {
  return !NOT_BLANK.test(text);
}
