/** Shows only the last four characters of a secret, so logs and screens never carry it whole. */
export function maskSecret(secret: string): string {
  if (secret === "") return "";
  return secret.length <= 8 ? "****" : `****${secret.slice(-4)}`;
}

/** A URL whose path or query may be a credential (a Discord webhook's token): only its scheme and host are shown. */
export function maskUrlPath(url: string): string {
  if (!URL.canParse(url)) return "****";
  const { protocol, host } = new URL(url);
  return `${protocol}//${host}/****`;
}

/** Shorter values are not looked for in texts: masking every "abc" would garble messages and hide nothing. */
export const SHORTEST_MASKED = 4;

/**
 * A function that replaces every secret found in a text by `mask`, longest
 * first so a secret holding a shorter one is hidden whole. Secrets shorter
 * than four characters are left alone.
 */
export function createSecretMasker(secrets: readonly string[], mask: string): (text: string) => string {
  const ordered = [...new Set(secrets)].filter((s) => s.length >= SHORTEST_MASKED).sort((a, b) => b.length - a.length);
  return (text) => ordered.reduce((out, secret) => (out.includes(secret) ? out.split(secret).join(mask) : out), text);
}
