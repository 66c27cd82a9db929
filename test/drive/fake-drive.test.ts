import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeDrive, type FakeDrive } from "../fakes/drive.js";
import { specChecker } from "../fakes/spec/checker.js";
import { takeViolations } from "../fakes/spec/violations.js";

describe("fake Drive v3", () => {
  let fake: FakeDrive;
  beforeEach(async () => {
    fake = await startFakeDrive();
  });
  afterEach(async () => fake.close());

  const get = async (path: string, token = "fake-access-token"): Promise<{ status: number; body: Record<string, unknown> }> => {
    const res = await fetch(new URL(path, fake.url), { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it("answers 401 with Google's error body to a wrong token and still counts the call", async () => {
    const res = await get("drive/v3/changes/startPageToken", "nope");
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: { code: 401, errors: [{ reason: "authError" }] } });
    expect(fake.calls["changes.getStartPageToken"]).toBe(1);
  });

  it("returns only the requested fields and pages 100 changes by default", async () => {
    const { body } = await get("drive/v3/changes/startPageToken");
    const folder = fake.addFolder("F");
    for (let i = 0; i < 150; i++) fake.addFile(`${i}.mkv`, folder);
    const page = await get(`drive/v3/changes?pageToken=${String(body.startPageToken)}&fields=nextPageToken,changes(fileId,file(name))`);
    const changes = page.body.changes as unknown[];
    expect(changes).toHaveLength(100);
    expect(changes[0]).toEqual({ fileId: folder, file: { name: "F" } });
    expect(Object.keys(page.body)).toEqual(["nextPageToken", "changes"]);
  });

  it("keeps only the latest entry per item and reports a deleted item as removed", async () => {
    const { body } = await get("drive/v3/changes/startPageToken");
    const id = fake.addFile("a.mkv", fake.rootId);
    fake.rename(id, "b.mkv");
    fake.remove(id);
    const page = await get(`drive/v3/changes?pageToken=${String(body.startPageToken)}`);
    expect(page.body.changes).toMatchObject([{ fileId: id, removed: true }]);
    expect(page.body.newStartPageToken).toBeDefined();
  });

  it("answers an injected 403 userRateLimitExceeded once", async () => {
    fake.failNext(403, { reason: "userRateLimitExceeded" });
    expect((await get("drive/v3/drives")).body).toMatchObject({
      error: { code: 403, errors: [{ domain: "usageLimits", reason: "userRateLimitExceeded" }] },
    });
    expect((await get("drive/v3/drives")).status).toBe(200);
  });

  it("hides shared-drive items from files.get without supportsAllDrives", async () => {
    const drive = fake.addDrive("Team");
    const folder = fake.addFolder("F", drive);
    expect((await get(`drive/v3/files/${folder}`)).status).toBe(404);
    expect((await get(`drive/v3/files/${folder}?supportsAllDrives=true&fields=id,driveId`)).body).toEqual({ id: folder, driveId: drive });
  });

  it("holds each request to Drive v3's description read from @googleapis/drive, naming the operation", async () => {
    await get("drive/v3/files?q=trashed%3Dfalse&pageSize=1000&supportsAllDrives=true&includeItemsFromAllDrives=true&corpora=user");
    expect(takeViolations()).toEqual([]);
    await get("drive/v3/files?includeTrashed=true");
    await get("drive/v3/changes?pageSize=1000");
    await fetch(new URL("drive/v3/changes/startPageToken", fake.url));
    expect(takeViolations()).toEqual([
      'Google Drive GET /drive/v3/files (files.list): /query must NOT have additional properties ("includeTrashed")',
      "Google Drive GET /drive/v3/changes (changes.list): /query must have required property 'pageToken' (\"pageToken\")",
      "Google Drive GET /drive/v3/changes/startPageToken (changes.getStartPageToken): carries none of the credentials it declares",
    ]);
  });

  it("would be told of an answer with a field Drive's File has not, or a field of the wrong type", async () => {
    const checker = await specChecker("drive");
    const { operation } = checker.checkRequest({
      method: "GET",
      path: "/drive/v3/changes",
      query: new URLSearchParams("pageToken=1"),
      headers: { authorization: "Bearer fake-access-token" },
      body: "",
    });
    if (!operation) throw new Error("the description has no changes.list");
    const answer = (file: object) => JSON.stringify({ kind: "drive#changeList", changes: [{ fileId: "fi1", file }] });
    expect(checker.checkResponse(operation, 200, "application/json", answer({ id: "fi1", parents: ["fo1"], size: "1" }))).toEqual([]);
    expect(checker.checkResponse(operation, 200, "application/json", answer({ id: "fi1", parent: "fo1" }))).toEqual([
      'answer 200: /changes/0/file must NOT have additional properties ("parent")',
    ]);
    expect(checker.checkResponse(operation, 200, "application/json", answer({ id: "fi1", size: 1 }))).toEqual([
      "answer 200: /changes/0/file/size must be string",
    ]);
  });
});
