import { describe, expect, it } from "vitest";
import { TargetAuthError, TargetFatalError, TargetUnavailableError } from "../../src/domain.js";
import { isAuthStatus, isRetryableStatus } from "../../src/lib/http-status.js";
import { errorForStatus, type ServerLabel } from "../../src/http/errors.js";
import { plexStatusHints } from "../../src/targets/plex/status-hints.js";

const jellyfin: ServerLabel = { kind: "Jellyfin", where: "http://jf:8096", credential: "TARGETS[0].TOKEN" };
const plex: ServerLabel = {
  kind: "Plex",
  where: "http://plex:32400",
  credential: "PLEX_TOKEN",
  urlKey: "PLEX_LOCAL_URL",
  hints: plexStatusHints("PLEX_TOKEN"),
};

describe("the one status table of every media server", () => {
  it.each([
    [200, undefined],
    [204, undefined],
    [401, TargetAuthError],
    [403, TargetAuthError],
    [404, TargetUnavailableError],
    [408, TargetUnavailableError],
    [429, TargetUnavailableError],
    [500, TargetUnavailableError],
    [503, TargetUnavailableError],
    [400, TargetFatalError],
    [405, TargetFatalError],
    [301, TargetFatalError],
  ])("answers %i the same way for Plex and for the others", (status, kind) => {
    for (const label of [jellyfin, plex]) {
      const error = errorForStatus(status, "list the libraries", label);
      if (kind === undefined) expect(error).toBeUndefined();
      else expect(error).toBeInstanceOf(kind);
    }
  });

  it("keeps Plex's wording as hints only: the token, the admin account, the URL key", () => {
    expect(errorForStatus(401, "list the libraries", plex)?.message).toBe(
      "Plex at http://plex:32400 refused the token (401) when asked to list the libraries; check PLEX_TOKEN",
    );
    expect(errorForStatus(403, "scan", plex)?.message).toMatch(
      /answered 403 when asked to scan: this needs an admin token; PLEX_TOKEN must belong/,
    );
    expect(errorForStatus(302, "scan", plex)?.message).toMatch(/a redirect: set PLEX_LOCAL_URL to the address it points to/);
    expect(errorForStatus(401, "scan", jellyfin)?.message).toMatch(/refused the credential \(401\) .*check TARGETS\[0\]\.TOKEN/);
    expect(errorForStatus(302, "scan", jellyfin)?.message).toMatch(/set the URL to the address/);
  });
});

describe("the retry rule shared by every outside service", () => {
  it("retries 408, 429 and 5xx, calls 401 and 403 a credential problem, and neither for the rest", () => {
    const statuses = [200, 301, 400, 401, 403, 404, 405, 408, 429, 500, 502, 503, 599];
    expect(statuses.filter(isRetryableStatus)).toEqual([408, 429, 500, 502, 503, 599]);
    expect(statuses.filter(isAuthStatus)).toEqual([401, 403]);
  });
});
