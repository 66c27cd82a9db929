import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough, Writable } from "node:stream";
import type { CommandContext } from "../../src/cli/context.js";
import { defaultConfig } from "../../src/config/defaults.js";
import type { CloudConfig, Config } from "../../src/config/types.js";
import { resolveInstallPaths } from "../../src/lib/install-paths.js";
import { createLogger } from "../../src/lib/logger.js";
import type { FakeOAuth } from "../fakes/oauth.js";

export const CLIENT = { clientId: "1234-test.apps.googleusercontent.com", clientSecret: "GOCSPX-not-to-be-printed-9f3a" };

/** A writable that keeps what was written and lets a test wait for a pattern. */
export class Capture extends Writable {
  private text = "";
  private waiters: Array<{ pattern: RegExp; resolve(match: RegExpMatchArray): void }> = [];

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    this.waiters = this.waiters.filter((w) => {
      const match = this.text.match(w.pattern);
      if (match) w.resolve(match);
      return !match;
    });
    done();
  }

  get output(): string {
    return this.text;
  }

  /** Resolves with the first match of `pattern`, now or when it gets written. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray> {
    const match = this.text.match(pattern);
    if (match) return Promise.resolve(match);
    return new Promise((resolve) => this.waiters.push({ pattern, resolve }));
  }
}

export interface Harness {
  ctx: CommandContext;
  stdout: Capture;
  stderr: Capture;
  log: Capture;
  stdin: PassThrough;
  abort: AbortController;
  dir: string;
  cleanup(): Promise<void>;
}

/** A command context in a temp install dir, with CLOUD pointed at the fake. */
export async function createHarness(fake: FakeOAuth | undefined, cloud: Partial<CloudConfig> = {}): Promise<Harness> {
  const dir = await mkdtemp(path.join(tmpdir(), "scanarr-auth-"));
  const stdout = new Capture();
  const stderr = new Capture();
  const log = new Capture();
  const stdin = new PassThrough();
  const abort = new AbortController();
  const config = configFor(fake, cloud);
  const ctx: CommandContext = {
    config,
    paths: resolveInstallPaths(dir),
    logger: createLogger({ format: "json", destination: log, level: "debug" }),
    stdout,
    stderr,
    color: false,
    env: {},
    signal: abort.signal,
    stdin,
  };
  return { ctx, stdout, stderr, log, stdin, abort, dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export function configFor(fake: FakeOAuth | undefined, cloud: Partial<CloudConfig> = {}): Config {
  const base = defaultConfig("a".repeat(32));
  const endpoints = fake ? { AUTH_URL: fake.authUrl, TOKEN_URL: fake.tokenUrl, API_URL: fake.apiUrl } : {};
  return {
    ...base,
    CLOUD: { ...base.CLOUD, ENABLED: true, CLIENT_ID: CLIENT.clientId, CLIENT_SECRET: CLIENT.clientSecret, ...endpoints, ...cloud },
  };
}

/** Plays the user in the browser: opens the printed URL and returns where consent redirects. */
export async function consentInBrowser(stdout: Capture): Promise<string> {
  const [url] = await stdout.waitFor(/http:\/\/127\.0\.0\.1:\d+\/o\/oauth2\/v2\/auth\?\S+/);
  const response = await fetch(url, { redirect: "manual" });
  const location = response.headers.get("location");
  if (response.status !== 302 || !location) throw new Error(`consent answered ${response.status}`);
  return location;
}
