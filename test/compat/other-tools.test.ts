import { execa } from "execa";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../src/auth/password-hash.js";
import { withTargetDefaults } from "../../src/config/defaults.js";
import { ManualClock } from "../../src/lib/clock.js";
import { createArgvRecorder, type ArgvRecorder } from "../helpers/argv-recorder.js";
import { deliveriesSettled, startTestService, waitFor, type TestService } from "../helpers/service.js";

// How Bazarr, Tdarr, FileFlows and a script call scanarr, each request built the way the tool
// builds it (where each shape comes from is said above its test), through a real service.
// A command target records the folder and the files each scan named: what reached the way in.

const USER = "scanarr";
const PASSWORD = "tools-password-42";
let passwordHash: string;
beforeAll(async () => {
  passwordHash = await hashPassword(PASSWORD);
});

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

interface Setup {
  t: TestService;
  clock: ManualClock;
  recorder: ArgvRecorder;
  basic: string;
}

async function start(): Promise<Setup> {
  const recorder = createArgvRecorder();
  const clock = new ManualClock(Date.now());
  const t = await startTestService(
    {
      SERVER_USERNAME: USER,
      SERVER_PASSWORD_HASH: passwordHash,
      TARGETS: [withTargetDefaults({ TYPE: "command", NAME: "recorder", COMMAND: [recorder.program, "{folder}", "{file}"] })],
    },
    { clock },
  );
  cleanups.push(() => t.stop());
  return { t, clock, recorder, basic: `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}` };
}

/** Lets the queued scans be delivered and returns what the recorder got: [folder, ...files] per scan. */
async function delivered(s: Setup, count: number): Promise<string[][]> {
  s.clock.advance(11 * 60_000);
  await deliveriesSettled(s.t);
  await waitFor(() => s.recorder.runs().length >= count, 5_000, `${count} command runs`);
  return s.recorder.runs();
}

const SUBTITLE = `/movies/Amélie (2001)/Amélie l'"intégrale" (2001).fr.forced.srt`;
const SUBTITLE_ON_PLEX = SUBTITLE.replace("/movies/", "/data/Movies/");

/**
 * Bazarr's post-processing: it replaces `{{subtitles}}` (and a quote either
 * side of it) with the path in double quotes, escaping `"`, `\` and control
 * characters, then runs the command through the shell
 * (bazarr/utilities/post_processing.py, pp_replace and _escape).
 */
function asBazarrRunsIt(command: string, subtitles: string): string {
  const escapes: Record<string, string> = {
    "\b": "\\b",
    "\x07": "\\a",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\v": "\\v",
    '"': '\\"',
    "\\": "\\\\",
  };
  const quoted = `"${[...subtitles].map((c) => escapes[c] ?? c).join("")}"`;
  return command.replace(/['"]?\{\{subtitles\}\}['"]?/g, () => quoted);
}

async function hasCurl(): Promise<boolean> {
  return (await execa("curl", ["--version"], { reject: false })).exitCode === 0;
}

describe("other tools' requests", () => {
  it("Bazarr's post-processing command (docs/connect/bazarr.md) names the subtitle, which reaches the scan", async (ctx) => {
    if (!(await hasCurl())) {
      if (process.env.CI === "true") throw new Error("curl is needed to run Bazarr's command as Bazarr does");
      console.warn("skipped: curl is not installed");
      return ctx.skip();
    }
    const s = await start();
    // The line docs/connect/bazarr.md gives, with this service's address.
    const line = `curl -fsS -G -u ${USER}:${PASSWORD} --data-urlencode path={{subtitles}} ${s.t.origin}/triggers/manual`;
    const run = await execa("/bin/sh", ["-c", asBazarrRunsIt(line, SUBTITLE)], { reject: false });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: "queued", queued: ["/data/Movies/Amélie (2001)"] });
    expect(await delivered(s, 1)).toEqual([["/data/Movies/Amélie (2001)", SUBTITLE_ON_PLEX]]);
  });

  it("Bazarr's autopulse-style GET ?path= with the pass in the URL works the same", async () => {
    const s = await start();
    const res = await fetch(`${s.t.base}/triggers/manual?path=${encodeURIComponent(SUBTITLE)}`);
    expect(res.status).toBe(200);
    expect(await delivered(s, 1)).toEqual([["/data/Movies/Amélie (2001)", SUBTITLE_ON_PLEX]]);
  });

  it("Tdarr's classic plugin (Tdarr_Plugin_TD01_TOAD_Autoscan) queues the file's folder", async () => {
    const s = await start();
    const file = "/tv/Severance/Season 1/Severance - S01E01.mkv";
    // The plugin: POST {address}:{port}/triggers/manual?dir=<encodeURIComponent(folder + "/")>,
    // a JSON content type with no body, and Basic auth when a user name is set.
    const dir = `${file.split("/").slice(0, -1).join("/")}/`;
    const res = await fetch(`${s.t.origin}/triggers/manual?dir=${encodeURIComponent(dir)}`, {
      method: "POST",
      headers: { "content-type": "application/json", Authorization: s.basic },
    });
    expect(res.status).toBe(200);
    expect(await delivered(s, 1)).toEqual([["/data/TV/Severance/Season 1"]]);
  });

  it("Tdarr's webRequest flow plugin, with the body docs/connect/tdarr.md gives, names the file", async () => {
    const s = await start();
    const file = "/tv/Severance/Season 1/Severance - S01E01.remux.mkv";
    // The plugin (FlowPluginsTs/CommunityFlowPlugins/tools/webRequest): Tdarr fills {{{args.…}}} in the
    // inputs, the plugin JSON.parses requestHeaders and requestBody and sends them with axios (JSON).
    const requestBody = '{"eventType": "Manual", "filepath": "{{{args.inputFileObj._id}}}"}'.replace("{{{args.inputFileObj._id}}}", file);
    const requestHeaders = JSON.parse('{"Content-Type": "application/json"}') as Record<string, string>;
    const res = await fetch(s.t.base, { method: "POST", headers: requestHeaders, body: JSON.stringify(JSON.parse(requestBody)) });
    expect(res.status).toBe(202);
    expect(await delivered(s, 1)).toEqual([["/data/TV/Severance/Season 1", "/data/TV/Severance/Season 1/Severance - S01E01.remux.mkv"]]);
  });

  it("FileFlows' Web Request node (URL variables escaped with Uri.EscapeDataString) names the file", async () => {
    const s = await start();
    const file = "/movies/Heat (1995)/Heat (1995) #1 & more.mkv";
    // The node (FileFlows BasicNodes WebRequest): {file.FullName} in the URL is replaced escaped; with
    // the content type "None" nothing is sent as body; the headers come from the node's list.
    const url = `${s.t.origin}/triggers/manual?path={file.FullName}`.replace("{file.FullName}", encodeURIComponent(file));
    const res = await fetch(url, { method: "POST", headers: { Authorization: s.basic } });
    expect(res.status).toBe(200);
    expect(await delivered(s, 1)).toEqual([["/data/Movies/Heat (1995)", "/data/Movies/Heat (1995)/Heat (1995) #1 & more.mkv"]]);
  });

  it("a script's curl (docs/connect/script.md) names a file or a folder", async (ctx) => {
    if (!(await hasCurl())) {
      if (process.env.CI === "true") throw new Error("curl is needed to run the script's request");
      console.warn("skipped: curl is not installed");
      return ctx.skip();
    }
    const s = await start();
    const file = "/tv/Andor/Season 2/Andor - S02E01 $(id).mkv";
    // What the shell hands curl for: curl -fsS -X POST --data-urlencode eventType=Manual --data-urlencode "filepath=$FILE" "$URL/$PASS"
    const form = await execa(
      "curl",
      ["-fsS", "-X", "POST", "--data-urlencode", "eventType=Manual", "--data-urlencode", `filepath=${file}`, s.t.base],
      {
        reject: false,
      },
    );
    expect(form.exitCode, form.stderr).toBe(0);
    // And the folder form: curl -fsS -u user:password -X POST --data-urlencode "dir=$FOLDER" "$URL/triggers/manual"
    const folder = await execa(
      "curl",
      ["-fsS", "-u", `${USER}:${PASSWORD}`, "-X", "POST", "--data-urlencode", "dir=/tv/Andor/Season 1", `${s.t.origin}/triggers/manual`],
      { reject: false },
    );
    expect(folder.exitCode, folder.stderr).toBe(0);
    const runs = await delivered(s, 2);
    expect(runs).toEqual(
      expect.arrayContaining([
        ["/data/TV/Andor/Season 2", "/data/TV/Andor/Season 2/Andor - S02E01 $(id).mkv"],
        ["/data/TV/Andor/Season 1"],
      ]),
    );
    expect(runs).toHaveLength(2);
  });
});
