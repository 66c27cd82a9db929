import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, storedScans, TEST_PASS, type TestService } from "../helpers/service.js";

// biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for control characters.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ TRIGGERS: [{ NAME: "bazarr", TYPE: "manual" }] });
});
afterAll(async () => t?.stop());

interface Case {
  name: string;
  send: () => Promise<Response>;
  /** What the refusal must say: the character's code point and position. */
  says: RegExp;
}

const json = (url: string, body: unknown) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const form = (url: string, fields: Record<string, string>) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
const query = (url: string, params: Record<string, string>, method = "POST") => fetch(`${url}?${new URLSearchParams(params)}`, { method });

const CASES: Case[] = [
  {
    name: "a line feed in a Sonarr webhook's series folder",
    send: () => json(t.base, { eventType: "Download", series: { path: "/tv/Evil\nShow" }, episodeFile: { relativePath: "S01E01.mkv" } }),
    says: /line feed \(U\+000A\) at character 9/,
  },
  {
    name: "DEL in a Radarr webhook's file",
    send: () =>
      json(t.base, { eventType: "Download", movie: { folderPath: "/movies/M (2000)" }, movieFile: { relativePath: "m\u007f.mkv" } }),
    says: /control character \(U\+007F\) at character 19/,
  },
  {
    name: "a tab in the manual form's filepath",
    send: () => form(t.base, { eventType: "Manual", filepath: "/tv/Show\t1/x.mkv" }),
    says: /tab \(U\+0009\) at character 9/,
  },
  {
    name: "a line feed in /triggers/manual?dir=",
    send: () => query(`${t.base}/triggers/manual`, { dir: "/tv/Show\n[INFO] fake line" }),
    says: /line feed \(U\+000A\) at character 9/,
  },
  {
    name: "a carriage return inside a line of the /triggers/manual form",
    send: () => form(`${t.base}/triggers/manual`, { dir: "/tv/Good Show\n/tv/Bad\rShow" }),
    says: /carriage return \(U\+000D\) at character 8/,
  },
  {
    name: "a C1 next-line in autopulse's ?path=",
    send: () => query(`${t.base}/triggers/bazarr`, { path: "/tv/Show/\u0085x.mkv" }, "GET"),
    says: /control character \(U\+0085\) at character 10/,
  },
  {
    name: "a C1 control sequence introducer in autopulse's ?path= with a hash",
    send: () => query(`${t.base}/triggers/manual`, { path: "/tv/Show/\u009b2Jx.mkv", hash: "0".repeat(64) }),
    says: /control character \(U\+009B\) at character 10/,
  },
  {
    name: "an escape in an A-Train folder",
    send: () => json(`${t.base}/triggers/a-train/gdrive`, { created: ["/tv/Fine"], deleted: ["/tv/\u001b[31mRed"] }),
    says: /a-train: deleted\[0\] contains a control character \(U\+001B\) at character 5/,
  },
];

describe("control characters in requested paths", () => {
  for (const c of CASES) {
    it(`answers 400 naming the position, without echoing it, and queues nothing: ${c.name}`, async () => {
      const res = await c.send();
      const text = await res.text();
      expect(res.status).toBe(400);
      const message = text.startsWith("{") ? String((JSON.parse(text) as { error: string }).error) : text;
      expect(message).toMatch(c.says);
      expect(message).not.toMatch(CONTROL);
      expect(storedScans(t)).toEqual([]);
    });
  }

  it("writes no control character into the log", () => {
    const lines = t.logs().split("\n").filter(Boolean);
    expect(lines.some((line) => line.includes("scan request refused"))).toBe(true);
    for (const line of lines) expect(line).not.toMatch(CONTROL);
  });

  it("still queues the same paths without the control character", async () => {
    const res = await query(`${t.origin}/${TEST_PASS}/triggers/manual`, { dir: "/tv/Show" });
    expect(res.status).toBe(200);
    expect(storedScans(t).map((s) => s.folder)).toEqual(["/data/TV/Show"]);
  });
});
