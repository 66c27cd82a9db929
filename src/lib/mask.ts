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
