import { generateKeyPairSync } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { UserError } from "../../src/domain.js";
import { listSections, parseConf, readSection, serializeConf } from "../../src/rclone/conf-document.js";
import { revealPassword } from "../../src/rclone/obscure.js";
import { runRemoteWizard } from "../../src/rclone/wizard/run-wizard.js";
import { createNonInteractivePrompt } from "../../src/rclone/wizard/prompt.js";
import { listSharedDrives } from "../../src/rclone/shared-drives.js";
import { fetchServiceAccountToken } from "../../src/rclone/service-account.js";
import { startFakeSharedDrives, type FakeDrive } from "../fakes/drive.js";
import { startFakeOAuth } from "../fakes/oauth.js";
import { makeTempDir } from "./rclone-cli.js";
import { buildTestContext } from "./wizard-context.js";

const TOKEN = '{"access_token":"ya29.FAKE","token_type":"Bearer","refresh_token":"1//FAKE","expiry":"2030-01-01T00:00:00.123456789Z"}';
/** Steps 1-9 of the spec with the guide's answers, up to the token paste. */
const HEADLESS_START = ["n", "gdrive", "drive", "", "", "1", "", "", "n", "n"];

let api: FakeDrive | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

describe("remote wizard dialogue", () => {
  it("creates the headless remote of the spec byte for byte as rclone writes it", async () => {
    const block = ["2026/11/22 01:54:27 NOTICE: Got code", "Paste the following into your remote machine --->", TOKEN, "<---End paste"];
    const { ctx, output } = buildTestContext([...HEADLESS_START, ...block, "n", "y", "n", "q"]);
    await runRemoteWizard(ctx);
    expect(serializeConf(ctx.doc)).toBe(`[gdrive]\ntype = drive\nscope = drive\ntoken = ${TOKEN}\nteam_drive = \n\n`);
    expect(output()).toContain('\trclone authorize "drive" "eyJzY29wZSI6ImRyaXZlIn0"\n');
    expect(output()).toContain("retiring it during 2026");
    expect(output()).toContain('Put "gdrive" in the sync-tool');
    expect(output()).not.toContain("1//FAKE");
  });

  it("re-asks with a reason on a bad name, a bad scope, a bad letter and a bad paste", async () => {
    const answers = [
      "n",
      "bad:name",
      "gdrive",
      "s3",
      "drive",
      "",
      "",
      "9",
      "drive.everything",
      "drive.readonly",
      "",
      "",
      "maybe",
      "n",
      "n",
      "4/0Abc-code",
      TOKEN,
      "n",
      "y",
      "n",
      "q",
    ];
    const { ctx, prompt } = buildTestContext(answers);
    await runRemoteWizard(ctx);
    expect(prompt.reasons).toEqual([
      expect.stringContaining('Can\'t use "bad:name" as config name contains invalid characters'),
      expect.stringContaining("use `rclone config` for other storage"),
      "No choices with this number.",
      expect.stringContaining("This value must be one of: drive, drive.readonly"),
      "This value must be one of the following characters: y, n.",
    ]);
    expect(readSection(ctx.doc, "gdrive").get("scope")).toBe("drive.readonly");
  });

  it("refuses a duplicate name and values rclone cannot store", async () => {
    const { ctx, prompt } = buildTestContext(
      ["n", "gdrive", "other", "drive", "a`b", "", "", "1", "", "", "n", "n", TOKEN, "n", "y", "n", "q"],
      {
        doc: parseConf("[gdrive]\ntype = alias\nremote = /x\n\n"),
      },
    );
    await runRemoteWizard(ctx);
    expect(prompt.reasons).toEqual([
      'Remote "gdrive" already exists.',
      "must not contain a backtick (rclone cannot read it back unchanged)",
    ]);
    expect(listSections(ctx.doc)).toEqual(["gdrive", "other"]);
    expect(readSection(ctx.doc, "other").has("client_id")).toBe(false);
  });

  it("skips authorization for a service account and lists its shared drives through the token endpoint", async () => {
    const drive = await startFakeSharedDrives(
      [
        { id: "0AAteam", name: "Team Media" },
        { id: "0AAother", name: "Other" },
      ],
      "unused",
    );
    api = drive;
    const google = await startFakeOAuth({ clientId: "unused", clientSecret: "unused" });
    onTestFinished(() => google.close());
    const keys = generateKeyPairSync("rsa", { modulusLength: 2048 });
    google.addServiceAccount("sa@test.iam", keys.publicKey.export({ type: "spki", format: "pem" }).toString());
    const dir = makeTempDir();
    const keyFile = path.join(dir, "sa.json");
    const privateKey = keys.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    writeFileSync(
      keyFile,
      JSON.stringify({ type: "service_account", client_email: "sa@test.iam", private_key: privateKey, token_uri: google.tokenUrl }),
    );
    const apiUrl = drive.url;
    const { ctx, prompt, output } = buildTestContext(
      ["n", "sa", "", "", "", "", "", "~/missing.json", "$SA_DIR/sa.json", "n", "y", "2", "y", "n", "q"],
      {
        env: { SA_DIR: dir },
        home: dir,
        listSharedDrives: async (auth) =>
          listSharedDrives(
            apiUrl,
            // Google's token endpoint and the Drive API share their access tokens.
            trusted(
              drive,
              await fetchServiceAccountToken(auth.serviceAccountFile!.replace("$SA_DIR", dir), "https://www.googleapis.com/auth/drive"),
            ),
          ),
      },
    );
    await runRemoteWizard(ctx);
    expect(prompt.reasons).toEqual([`File not found: ${dir}/missing.json`]);
    expect(prompt.asked).not.toContain("config_token>");
    expect(output()).toContain(" 1 / Team Media\n   \\ (0AAteam)\n 2 / Other\n   \\ (0AAother)");
    expect(Object.fromEntries(readSection(ctx.doc, "sa"))).toEqual({
      type: "drive",
      scope: "drive",
      root_folder_id: "",
      service_account_file: "$SA_DIR/sa.json",
      team_drive: "0AAother",
    });
    expect(api?.requests).toContainEqual({ endpoint: "drives.list", query: { pageSize: "100", fields: "nextPageToken,drives(id,name)" } });
  });

  it("lists every page of shared drives with the pasted token and stores the chosen id", async () => {
    const drives = Array.from({ length: 120 }, (_, i) => ({ id: `0AA${i}`, name: `Drive ${i}` }));
    api = await startFakeSharedDrives(drives, "ya29.FAKE");
    const apiUrl = api.url;
    const { ctx } = buildTestContext([...HEADLESS_START, TOKEN, "y", "110", "y", "n", "q"], {
      listSharedDrives: (auth) => listSharedDrives(apiUrl, auth.token!),
    });
    await runRemoteWizard(ctx);
    expect(readSection(ctx.doc, "gdrive").get("team_drive")).toBe("0AA109");
    expect(api?.requests).toEqual([
      { endpoint: "drives.list", query: { pageSize: "100", fields: "nextPageToken,drives(id,name)" } },
      { endpoint: "drives.list", query: { pageSize: "100", fields: "nextPageToken,drives(id,name)", pageToken: "100" } },
    ]);
  });

  it("says when the token is refused by drives.list and takes a typed shared drive id instead", async () => {
    api = await startFakeSharedDrives([{ id: "0AAteam", name: "Team" }], "another-token");
    const apiUrl = api.url;
    const { ctx, output } = buildTestContext([...HEADLESS_START, TOKEN, "y", "0AAtyped", "y", "n", "q"], {
      listSharedDrives: (auth) => listSharedDrives(apiUrl, auth.token!),
    });
    await runRemoteWizard(ctx);
    expect(output()).toContain("the Drive API refused the token (HTTP 401)");
    expect(readSection(ctx.doc, "gdrive").get("team_drive")).toBe("0AAtyped");
  });

  it("runs the local rclone authorize on auto config and keeps what the browser side added", async () => {
    const blob = Buffer.from(JSON.stringify({ token: TOKEN, root_folder_id: "appDataFolder" })).toString("base64");
    let calledWith: string[] = [];
    const { ctx } = buildTestContext(["n", "app", "", "", "", "4", "", "", "n", "y", "n", "y", "n", "q"], {
      runAuthorize: async (args) => {
        calledWith = args;
        return `Paste the following into your remote machine --->\n${blob}\n<---End paste\n`;
      },
    });
    await runRemoteWizard(ctx);
    expect(calledWith[0]).toBe("drive");
    expect(JSON.parse(Buffer.from(calledWith[1]!, "base64").toString())).toEqual({
      root_folder_id: "appDataFolder",
      scope: "drive.appfolder",
    });
    expect(readSection(ctx.doc, "app").get("root_folder_id")).toBe("appDataFolder");
  });

  it("discards the remote on d and asks again with the previous answers as defaults on e", async () => {
    const { ctx } = buildTestContext([
      ...HEADLESS_START,
      TOKEN,
      "n",
      "e",
      "my-id",
      "",
      "",
      "",
      "",
      "n",
      "",
      "",
      "y",
      "n",
      "n",
      "gone",
      "drive",
      "",
      "",
      "",
      "",
      "",
      "n",
      "n",
      TOKEN,
      "n",
      "d",
      "q",
    ]);
    await runRemoteWizard(ctx);
    expect(listSections(ctx.doc)).toEqual(["gdrive"]);
    expect(Object.fromEntries(readSection(ctx.doc, "gdrive"))).toEqual({
      type: "drive",
      client_id: "my-id",
      scope: "drive",
      token: TOKEN,
      team_drive: "",
    });
  });

  it("creates a crypt remote on top with a generated password and a typed salt, both obscured", async () => {
    const { ctx, output } = buildTestContext([
      ...HEADLESS_START,
      TOKEN,
      "n",
      "y",
      "y",
      "",
      "",
      "",
      "",
      "g",
      "",
      "y",
      "y",
      "salt words",
      "salt words",
      "q",
    ]);
    await runRemoteWizard(ctx);
    const crypt = readSection(ctx.doc, "gdrive_crypt");
    expect(crypt.get("remote")).toBe("gdrive:encrypted");
    expect(crypt.get("filename_encryption")).toBe("standard");
    expect(revealPassword(crypt.get("password")!)).toBe("generated-password-123");
    expect(revealPassword(crypt.get("password2")!)).toBe("salt words");
    expect(output()).toContain("Your password is: generated-password-123");
  });

  it("answers every letter of the remotes menu: edit, new, delete, rename, copy, password, quit", async () => {
    const start = `# keep me\n[media]\ntype = alias\nremote = /srv\nunknown_key = stays\n\n[gdrive]\ntype = drive\nscope = drive\ntoken = ${TOKEN}\nteam_drive = \n\n`;
    const answers = [
      "e",
      "gdrive",
      "",
      "",
      "2",
      "",
      "",
      "n",
      "",
      "",
      "y",
      "r",
      "1",
      "films",
      "c",
      "gdrive",
      "gdrive copy",
      "d",
      "2",
      "e",
      "films",
      "s",
      "a",
      "pw",
      "pw",
      "q",
      "q",
    ];
    const { ctx, output } = buildTestContext(answers, { doc: parseConf(start) });
    await runRemoteWizard(ctx);
    expect(serializeConf(ctx.doc)).toBe(
      `# keep me\n[films]\ntype = alias\nremote = /srv\nunknown_key = stays\n\n[gdrive copy]\ntype = drive\nscope = drive.readonly\ntoken = ${TOKEN}\nteam_drive = \n\n`,
    );
    expect(ctx.password).toBe("pw");
    expect(output()).toContain("use `rclone config` to edit this alias remote");
  });
});

describe("remote wizard without prompts", () => {
  it("creates the remote from flags alone", async () => {
    const { ctx } = buildTestContext([], {
      interactive: false,
      prompt: createNonInteractivePrompt(),
      flags: { name: "gd", scope: "drive", token: TOKEN, teamDrive: "0AAteam" },
    });
    await runRemoteWizard(ctx);
    expect(Object.fromEntries(readSection(ctx.doc, "gd"))).toEqual({
      type: "drive",
      scope: "drive",
      root_folder_id: "",
      token: TOKEN,
      team_drive: "0AAteam",
    });
  });

  it("names the missing flag as a usage error", async () => {
    const { ctx } = buildTestContext([], { interactive: false, prompt: createNonInteractivePrompt(), flags: { name: "gd" } });
    const error = await runRemoteWizard(ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect(error).toMatchObject({ exitCode: 2, message: "--token or --service-account-file is required with --non-interactive" });
    const bad = buildTestContext([], {
      interactive: false,
      prompt: createNonInteractivePrompt(),
      flags: { name: "gd", token: "not a token" },
    }).ctx;
    await expect(runRemoteWizard(bad)).rejects.toThrow("--token: Couldn't decode response");
  });
});

/** A throwaway RSA key; the fake token endpoint does not check the signature. */
function trusted(drive: FakeDrive, accessToken: string): string {
  drive.accessTokens.add(accessToken);
  return accessToken;
}
