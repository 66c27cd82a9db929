import { describe, expect, it } from "vitest";
import { toDriveApiError } from "../../src/drive/errors.js";

describe("a refresh token Google stopped accepting, days after authorize", () => {
  it("is an auth failure whose message gives the 7-day Testing advice", () => {
    // What google-auth-library throws when the token endpoint refuses the refresh (a GaxiosError's shape).
    const refused = Object.assign(new Error("invalid_grant"), {
      response: { status: 400, data: { error: "invalid_grant", error_description: "Token has been expired or revoked." } },
    });
    const error = toDriveApiError(refused, "changes.list");
    expect(error.kind).toBe("auth");
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(
      /^changes\.list failed: 400: Google no longer accepts the stored refresh token.*scanarr authorize.*"Testing".*7 days/,
    );
  });

  it("leaves other 400s alone", () => {
    const bad = Object.assign(new Error("bad"), { response: { status: 400, data: { error: { errors: [{ reason: "invalid" }] } } } });
    expect(toDriveApiError(bad, "changes.list")).toMatchObject({ kind: "fatal", message: "changes.list failed: 400 invalid" });
  });
});
