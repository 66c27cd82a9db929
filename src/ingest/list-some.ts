const LISTED = 10;

/** The first few items for a message, so a request naming thousands of paths gets a short answer and log line. */
export function listSome(items: readonly string[]): string {
  const shown = items.slice(0, LISTED).join(", ");
  return items.length > LISTED ? `${shown} and ${items.length - LISTED} more` : shown;
}
