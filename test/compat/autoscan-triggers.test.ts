import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../src/auth/password-hash.js";
import { startTestService, TEST_PASS, type TestService } from "../helpers/service.js";
import { AUTOSCAN_GETS_WRONG, MAPPINGS, SAME_AS_AUTOSCAN, SECTIONS, type AutoscanCase } from "./autoscan-cases.js";

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
const AUTH = { authorization: basic("autoscan", "correct horse") };

async function call(url: string, init: RequestInit = {}): Promise<{ status: number; body: Record<string, unknown>; text: string }> {
  const res = await fetch(url, { ...init, headers: { ...AUTH, ...(init.headers as Record<string, string>) } });
  const text = await res.text();
  return { status: res.status, body: text.startsWith("{") ? (JSON.parse(text) as Record<string, unknown>) : {}, text };
}

const post = (url: string, body: unknown) =>
  call(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

describe("autoscan's trigger routes, served by scanarr", () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService(
      {
        SERVER_PATH_MAPPINGS: MAPPINGS,
        SERVER_USERNAME: "autoscan",
        SERVER_PASSWORD_HASH: await hashPassword("correct horse"),
        TRIGGERS: [{ NAME: "sonarr4k", TYPE: "sonarr" }],
      },
      { sections: SECTIONS },
    );
  });
  afterAll(async () => t?.stop());

  async function expectFolders(c: AutoscanCase, url: string): Promise<void> {
    const before = t.plex.refreshes.length;
    const answer = await post(url, c.body);
    expect(answer.status).toBe(200);
    if (c.folders.length === 0) {
      expect(["test", "ignored"]).toContain(answer.body.status);
      return;
    }
    expect(answer.body.status).toBe("queued");
    expect([...(answer.body.queued as string[]), ...(answer.body.covered as string[])].sort()).toEqual([...c.folders].sort());
    await t.plex.waitForRefreshes(before + c.folders.length);
    expect(
      t.plex.refreshes
        .slice(before)
        .map((r) => r.path)
        .sort(),
    ).toEqual([...c.folders].sort());
  }

  describe("the same folders as autoscan", () => {
    for (const c of SAME_AS_AUTOSCAN) it(c.name, () => expectFolders(c, `${t.origin}/triggers/${c.route}`));
  });

  describe("the cases autoscan gets wrong, right", () => {
    for (const c of AUTOSCAN_GETS_WRONG) it(c.name, () => expectFolders(c, `${t.origin}/triggers/${c.route}`));
  });

  it("answers 400 to a body that is not JSON on every *arr route", async () => {
    for (const route of ["sonarr", "radarr", "lidarr", "readarr"]) {
      const answer = await post(`${t.origin}/triggers/${route}`, "{ this is not json");
      expect(answer.status, route).toBe(400);
    }
  });

  it("serves a configured name with its type's parser", async () => {
    const c = SAME_AS_AUTOSCAN[0] as AutoscanCase;
    await expectFolders(c, `${t.origin}/triggers/sonarr4k`);
  });

  it("refuses a Radarr webhook sent to a Sonarr name, naming both", async () => {
    const answer = await post(`${t.origin}/triggers/sonarr`, {
      eventType: "Download",
      movie: { folderPath: "/Movies/X (2000)" },
      movieFile: { relativePath: "x.mkv" },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/radarr webhook.*configured for sonarr/);
  });

  it("answers 404 naming the configured triggers for an unknown name, 405 to GET on an *arr name", async () => {
    const unknown = await post(`${t.origin}/triggers/sonar`, { eventType: "Test" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toContain("sonarr4k");
    const get = await call(`${t.origin}/triggers/sonarr`);
    expect(get.status).toBe(405);
  });

  describe("manual", () => {
    it("queues every dir, rewritten, for any method but GET and HEAD", async () => {
      const before = t.plex.refreshes.length;
      const query = new URLSearchParams([
        ["dir", "/TV/Legion/Season 2"],
        ["dir", "/Movies/Tenet (2020)"],
      ]);
      const answer = await call(`${t.origin}/triggers/manual?${query}`, { method: "POST" });
      expect(answer.status).toBe(200);
      expect((answer.body.queued as string[]).sort()).toEqual([
        "/mnt/unionfs/Media/Movies/Tenet (2020)",
        "/mnt/unionfs/Media/TV/Legion/Season 2",
      ]);
      await t.plex.waitForRefreshes(before + 2);
      const put = await call(`${t.origin}/triggers/manual?dir=${encodeURIComponent("/TV/Legion/Season 3")}`, { method: "PUT" });
      expect(put.status).toBe(200);
    });

    it("answers 400 when no dir is given", async () => {
      expect((await call(`${t.origin}/triggers/manual`, { method: "POST" })).status).toBe(400);
    });

    it("serves the form on GET and 200 on HEAD", async () => {
      const page = await call(`${t.origin}/triggers/manual`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('<textarea id="dir" name="dir"');
      expect((await call(`${t.origin}/triggers/manual`, { method: "HEAD" })).status).toBe(200);
    });

    it("queues the folders the form posts, one per line", async () => {
      const answer = await call(`${t.origin}/triggers/manual`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
        body: new URLSearchParams({ dir: "/TV/Legion/Season 4\r\n/TV/Legion/Season 5\r\n" }).toString(),
      });
      expect(answer.status).toBe(200);
      expect(answer.text).toContain("queued: /mnt/unionfs/Media/TV/Legion/Season 4");
      expect(answer.text).toContain("queued: /mnt/unionfs/Media/TV/Legion/Season 5");
    });

    it("queues every dir of a form body that names it more than once", async () => {
      const answer = await call(`${t.origin}/triggers/manual`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "dir=/TV/F1/Season 01&dir=/TV/F2/Season+01",
      });
      expect(answer.status).toBe(200);
      expect((answer.body.queued as string[]).sort()).toEqual(["/mnt/unionfs/Media/TV/F1/Season 01", "/mnt/unionfs/Media/TV/F2/Season 01"]);
    });
  });

  describe("a-train", () => {
    it("queues created and deleted folders", async () => {
      const answer = await post(`${t.origin}/triggers/a-train/0A1B2C3D4E5F6G7H8I`, {
        created: ["/Movies/Interstellar (2014)", "/TV/Legion/Season 1"],
        deleted: ["/Movies/Wonder Woman 1984 (2020)", "/Movies/Mortal Kombat (2021)"],
      });
      expect(answer.status).toBe(200);
      expect([...(answer.body.queued as string[]), ...(answer.body.covered as string[])].sort()).toEqual([
        "/mnt/unionfs/Media/Movies/Interstellar (2014)",
        "/mnt/unionfs/Media/Movies/Mortal Kombat (2021)",
        "/mnt/unionfs/Media/Movies/Wonder Woman 1984 (2020)",
        "/mnt/unionfs/Media/TV/Legion/Season 1",
      ]);
    });

    it("scans a folder that is both created and deleted once", async () => {
      const answer = await post(`${t.origin}/triggers/a-train/drive`, {
        created: ["/TV/Legion/Season 9"],
        deleted: ["/TV/Legion/Season 9"],
      });
      expect(answer.status).toBe(200);
      expect([...(answer.body.queued as string[]), ...(answer.body.covered as string[])]).toEqual([
        "/mnt/unionfs/Media/TV/Legion/Season 9",
      ]);
    });

    for (const [created, deleted] of [
      ["created", "deleted"],
      ["Created", "Deleted"],
      ["CREATED", "DELETED"],
    ] as const) {
      it(`reads ${created} and ${deleted} as Go's JSON decoder does, in any case`, async () => {
        const answer = await post(`${t.origin}/triggers/a-train/drive`, {
          [created]: [`/Movies/${created} (2001)`],
          [deleted]: [`/Movies/${deleted} (2002)`],
        });
        expect(answer.status).toBe(200);
        expect([...(answer.body.queued as string[]), ...(answer.body.covered as string[])].sort()).toEqual([
          `/mnt/unionfs/Media/Movies/${created} (2001)`,
          `/mnt/unionfs/Media/Movies/${deleted} (2002)`,
        ]);
      });
    }

    it("answers 400 to a body without folders and 405 to GET", async () => {
      expect((await post(`${t.origin}/triggers/a-train/drive`, { created: [] })).status).toBe(400);
      expect((await call(`${t.origin}/triggers/a-train/drive`)).status).toBe(405);
    });
  });

  it("serves every route under /<pass>/triggers/ without HTTP Basic", async () => {
    const res = await fetch(`${t.origin}/${TEST_PASS}/triggers/sonarr`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ eventType: "Test", series: { path: "/TV/x" } }),
    });
    expect(res.status).toBe(200);
    const wrong = await fetch(`${t.origin}/not-the-pass-at-all/triggers/sonarr`, { method: "POST", body: "{}" });
    expect(wrong.status).toBe(401);
  });
});
