import { describe, expect, it } from "vitest";
import { resolveRcloneConfigPath } from "../../src/rclone/conf-path.js";
import { checkRemoteName, checkConfValue } from "../../src/rclone/conf-rules.js";

function resolve(existing: string[], extra: Partial<Parameters<typeof resolveRcloneConfigPath>[0]> = {}) {
  return resolveRcloneConfigPath({ env: {}, home: "/home/u", platform: "linux", exists: (file) => existing.includes(file), ...extra });
}

describe("rclone.conf location", () => {
  it("prefers the flag over RCLONE_CONFIG, and RCLONE_CONFIG over the search", () => {
    expect(resolve([], { flag: "/a/r.conf", env: { RCLONE_CONFIG: "/b/r.conf" } })).toEqual({ file: "/a/r.conf", source: "flag" });
    expect(resolve(["/home/u/.config/rclone/rclone.conf"], { env: { RCLONE_CONFIG: "/b/r.conf" } })).toEqual({
      file: "/b/r.conf",
      source: "RCLONE_CONFIG",
    });
  });

  it("takes the first existing file in rclone's order: next to rclone, XDG, ~/.config, ~/.rclone.conf", () => {
    const all = ["/usr/bin/rclone.conf", "/xdg/rclone/rclone.conf", "/home/u/.config/rclone/rclone.conf", "/home/u/.rclone.conf"];
    const env = { XDG_CONFIG_HOME: "/xdg" };
    expect(resolve(all, { env, rcloneDir: "/usr/bin" }).file).toBe("/usr/bin/rclone.conf");
    expect(resolve(all.slice(1), { env, rcloneDir: "/usr/bin" }).file).toBe("/xdg/rclone/rclone.conf");
    expect(resolve(all.slice(2), { env }).file).toBe("/home/u/.config/rclone/rclone.conf");
    expect(resolve(all.slice(3), { env }).file).toBe("/home/u/.rclone.conf");
  });

  it("names the path for a new file under XDG_CONFIG_HOME, else ~/.config", () => {
    expect(resolve([], { env: { XDG_CONFIG_HOME: "/xdg" } })).toEqual({ file: "/xdg/rclone/rclone.conf", source: "new" });
    expect(resolve([])).toEqual({ file: "/home/u/.config/rclone/rclone.conf", source: "new" });
  });

  it("refuses the in-memory forms, where nothing could be saved", () => {
    for (const flag of ["", "/dev/null", "/tmp/notfound"]) expect(() => resolve([], { flag })).toThrow("in memory only");
  });
});

describe("remote names and values", () => {
  it("accepts the names both rclone 1.60 and current rclone accept, and nothing else", () => {
    for (const name of ["gdrive", "g_drive.2", "my drive", "a-b"]) expect(checkRemoteName(name, [])).toBeUndefined();
    for (const name of ["", "-x", "x-", " x", "x ", "a:b", "a/b", "a@b", "dévé"]) expect(checkRemoteName(name, [])).toBeDefined();
    expect(checkRemoteName("C", [], "win32")).toContain("drive letter");
    expect(checkRemoteName("gd.x", ["gd"])).toContain('remote "gd"');
  });

  it("refuses values rclone cannot read back unchanged", () => {
    for (const value of ["a\nb", " a", "a ", "a`b", '"""x"""', "%(type)s"]) expect(checkConfValue(value)).toBeDefined();
    expect(checkConfValue('{"access_token":"a:b=c"}')).toBeUndefined();
  });
});
