/** The text of a thrown value: an Error's message, anything else as a string. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `TargetUnavailableError: …`: the message with the Error's name, for lines that must say which kind of failure it was. */
export function namedMessageOf(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
