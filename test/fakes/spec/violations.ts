/**
 * Requests and answers a fake saw that its server's own API description does
 * not allow. The fakes record them here; the vitest setup file
 * (test/helpers/spec-violations-hook.ts) fails the test they happened in, so
 * no test has to remember to ask.
 */
const pending: string[] = [];
const allowed: RegExp[] = [];

/** Records one violation, e.g. `Emby GET /Items: query parameter "Foo" is not in the description`. */
export function recordViolation(message: string): void {
  if (allowed.some((pattern) => pattern.test(message))) return;
  pending.push(message);
}

/** The violations recorded since the last call, which are forgotten. */
export function takeViolations(): string[] {
  return pending.splice(0);
}

/**
 * For a test that sends a fake what no server describes on purpose (to see
 * the fake refuse it): violations matching `pattern` are not recorded until
 * the end of the current test.
 */
export function allowViolations(pattern: RegExp): void {
  allowed.push(pattern);
}

/** Ends every allowViolations; the hook calls it after each test. */
export function resetAllowed(): void {
  allowed.length = 0;
}
