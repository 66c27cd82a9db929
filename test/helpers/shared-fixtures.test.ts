import { afterEach, describe, expect, it, vi } from "vitest";
import { sharedFixture } from "./shared-fixtures.js";

afterEach(() => vi.unstubAllEnvs());

describe("tests that read ../shared/fixtures", () => {
  it("fail in CI when the fixture is missing", () => {
    vi.stubEnv("CI", "true");
    const missing = sharedFixture("no-such-fixture", "the example tests");
    expect(missing).toMatchObject({ present: false, run: true });
    expect(() => missing.file("a.json")).toThrow(/no-such-fixture is missing, and CI=true requires the shared fixtures/);
  });

  it("skip elsewhere, saying so", () => {
    vi.stubEnv("CI", "");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    expect(sharedFixture("no-such-fixture", "the example tests")).toMatchObject({ present: false, run: false });
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^skipping the example tests: .*no-such-fixture is absent$/));
    warn.mockRestore();
  });
});
