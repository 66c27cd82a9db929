/** Shows only the last four characters of a secret, so logs and screens never carry it whole. */
export function maskSecret(secret: string): string {
  if (secret === "") return "";
  return secret.length <= 8 ? "****" : `****${secret.slice(-4)}`;
}
