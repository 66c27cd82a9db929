import { afterAll, afterEach } from "vitest";
import { resetAllowed, takeViolations } from "../fakes/spec/violations.js";

// Loaded for every test file (vitest.config.ts setupFiles): a request or an
// answer of a fake that its server's description does not allow fails the
// test it happened in, without the test asking.
function failOnViolations(): void {
  resetAllowed();
  const violations = takeViolations();
  if (violations.length > 0) {
    throw new Error(`a fake saw what its server's API description does not allow:\n- ${violations.join("\n- ")}`);
  }
}

afterEach(failOnViolations);
afterAll(failOnViolations);
