import { describe, expect, it } from "vitest";
import { TargetUnavailableError } from "../../src/domain.js";
import { messageOf, namedMessageOf } from "../../src/lib/errors.js";

describe("messageOf", () => {
  it("gives an Error's message and any other thrown value as text", () => {
    expect(messageOf(new Error("disk full"))).toBe("disk full");
    expect(messageOf("plain text")).toBe("plain text");
    expect(messageOf(42)).toBe("42");
    expect(messageOf(undefined)).toBe("undefined");
  });

  it("names the kind of failure when asked", () => {
    expect(namedMessageOf(new TargetUnavailableError("503"))).toBe("TargetUnavailableError: 503");
    expect(namedMessageOf("plain")).toBe("plain");
  });
});
