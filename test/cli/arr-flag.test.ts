import { describe, expect, it } from "vitest";
import { parseArrFlag } from "../../src/cli/arr-flag.js";
import { UserError } from "../../src/domain.js";

describe("parseArrFlag", () => {
  it("splits --arr at the last comma", () => {
    expect(parseArrFlag("http://sonarr:8989,0123abcd")).toEqual({ url: "http://sonarr:8989", apiKey: "0123abcd" });
    expect(parseArrFlag(" http://host/a,b ,key ")).toEqual({ url: "http://host/a,b", apiKey: "key" });
  });

  it.each([
    ["http://sonarr:8989", "expected <url>,<api key>"],
    ["http://sonarr:8989,", "expected <url>,<api key>"],
    [",key", "expected <url>,<api key>"],
    ["sonarr:8989,key", "the URL must start with http:// or https://"],
    ["http://u:p@sonarr:8989,key", "the URL must not contain a user name or password"],
  ])("refuses %j with a usage error naming the flag, never the key", (value, reason) => {
    let error: unknown;
    try {
      parseArrFlag(value, "--arr");
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).exitCode).toBe(2);
    expect((error as UserError).message).toContain(`--arr: ${reason}`);
    expect((error as UserError).message).not.toContain(",key");
  });
});
