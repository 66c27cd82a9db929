import { afterEach, describe, expect, it } from "vitest";
import { UserError } from "../../src/domain.js";
import { loadLibraries } from "../../src/targets/plex/library-source.js";
import { startFakePlex, type FakePlex } from "../fakes/plex.js";
import { buildPlexDb } from "./helpers/plex-db.js";

let plex: FakePlex | undefined;
afterEach(async () => {
  await plex?.close();
  plex = undefined;
});

describe("loadLibraries", () => {
  it("reads the database without asking the API", async () => {
    plex = await startFakePlex();
    const db = buildPlexDb([{ id: 9, name: "Docs", type: 1, locations: ["/docs"] }]);
    const loaded = await loadLibraries({ PLEX_DATABASE_PATH: db, PLEX_LOCAL_URL: plex.url, PLEX_TOKEN: plex.token });
    expect(loaded).toEqual({ from: "database", libraries: [{ id: "9", title: "Docs", type: "movie", locations: ["/docs"] }] });
    expect(plex.requests).toEqual([]);
  });

  it("falls back to the Plex API when the database cannot be opened", async () => {
    plex = await startFakePlex();
    const loaded = await loadLibraries({ PLEX_DATABASE_PATH: "/nonexistent/plex.db", PLEX_LOCAL_URL: plex.url, PLEX_TOKEN: plex.token });
    expect(loaded.from).toBe("api");
    expect(loaded.libraries.map((l) => [l.id, l.title, l.locations])).toEqual([
      ["1", "Movies", ["/data/Movies"]],
      ["2", "TV Shows", ["/data/TV-Shows"]],
      ["3", "Photos", ["/data/Photos"]],
      ["5", "Music", ["/data/Music"]],
    ]);
  });

  it("names both causes, and never the token, when neither source answers", async () => {
    plex = await startFakePlex();
    const attempt = loadLibraries({
      PLEX_DATABASE_PATH: "/nonexistent/plex.db",
      PLEX_LOCAL_URL: plex.url,
      PLEX_TOKEN: "wrong-secret-token",
    });
    await expect(attempt).rejects.toBeInstanceOf(UserError);
    const error = await attempt.then(
      () => new Error("resolved"),
      (e: unknown) => e as Error,
    );
    expect(error.message).toMatch(/\/nonexistent\/plex\.db.*from the API: /s);
    expect(error.message).not.toContain("wrong-secret-token");
  });

  it("says so when there is neither a database nor a server URL", async () => {
    await expect(loadLibraries({ PLEX_DATABASE_PATH: "", PLEX_LOCAL_URL: "", PLEX_TOKEN: "" })).rejects.toThrow(
      "cannot list the Plex libraries: PLEX_DATABASE_PATH is empty, and PLEX_LOCAL_URL is empty",
    );
  });
});
