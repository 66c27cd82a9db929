import type { Library } from "../domain.js";
import { UserError } from "../domain.js";
import { messageOf } from "../lib/errors.js";
import { bigCode } from "../plex-tv/big-code.js";
import type { PlexResource } from "../plex-tv/client.js";
import { ownedServers, reachServer } from "../plex-tv/servers.js";
import { waitForSignIn } from "../plex-tv/sign-in.js";
import { PlexApiClient } from "../targets/plex/api.js";
import type { SetupContext } from "./context.js";

/** The Plex server scans go to: PLEX_LOCAL_URL and PLEX_TOKEN, and what it holds. */
export interface PlexChoice {
  url: string;
  token: string;
  libraries: Library[];
  api: PlexApiClient;
}

type PlexStepContext = Pick<SetupContext, "prompt" | "say" | "interactive" | "flags" | "current" | "services" | "signal">;

/**
 * Step 1: which Plex server, reached how. --plex-url/--plex-token answer it,
 * --plex-pin signs in with a PIN; on a terminal the user picks; without one
 * the current config is kept when it has a token, else the flags are named.
 */
export async function choosePlex(ctx: PlexStepContext): Promise<PlexChoice> {
  const { flags, current } = ctx;
  if (flags.plexUrl !== undefined || flags.plexToken !== undefined) return typedServer(ctx, flags.plexUrl, flags.plexToken);
  if (flags.plexPin) return signIn(ctx);
  const configured = current.PLEX_TOKEN !== "";
  if (!ctx.interactive) {
    if (configured) return checkServer(ctx, current.PLEX_LOCAL_URL, current.PLEX_TOKEN);
    throw new UserError("no Plex server configured: pass --plex-url and --plex-token, or --plex-pin to sign in with plex.tv", 2);
  }
  const how = await ctx.prompt.select({
    message: "Plex: how should scanarr reach your server?",
    choices: [
      ...(configured ? [{ name: `Keep ${current.PLEX_LOCAL_URL} and its token`, value: "keep" as const }] : []),
      { name: "Sign in with plex.tv (a 4-character code; works over SSH)", value: "pin" as const },
      { name: "Type the server's URL and token", value: "type" as const },
    ],
    flag: "--plex-url and --plex-token, or --plex-pin",
  });
  if (how === "keep") return checkServer(ctx, current.PLEX_LOCAL_URL, current.PLEX_TOKEN);
  if (how === "pin") return signIn(ctx);
  for (;;) {
    try {
      return await typedServer(ctx, undefined, undefined);
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      ctx.say(error.message);
      if (!(await ctx.prompt.confirm({ message: "Type the Plex URL and token again?", default: true, flag: "--plex-url" }))) throw error;
    }
  }
}

async function typedServer(ctx: PlexStepContext, url: string | undefined, token: string | undefined): Promise<PlexChoice> {
  // Without a terminal, the flag not given keeps the current value.
  const keep = (value: string): string | undefined => (!ctx.interactive && value !== "" ? value : undefined);
  const chosenUrl =
    url ??
    keep(ctx.current.PLEX_LOCAL_URL) ??
    (await ctx.prompt.input({ message: "Plex server URL:", default: ctx.current.PLEX_LOCAL_URL, flag: "--plex-url" }));
  const chosenToken =
    token ??
    keep(ctx.current.PLEX_TOKEN) ??
    (await ctx.prompt.password({ message: "Plex token (X-Plex-Token of the server's admin account):", flag: "--plex-token" }));
  return checkServer(ctx, chosenUrl, chosenToken);
}

/** Proves the URL and token: the server lists its libraries with the token (401/403 name the token, no answer names the URL). */
async function checkServer(ctx: PlexStepContext, url: string, token: string): Promise<PlexChoice> {
  let api: PlexApiClient;
  let libraries: Library[];
  try {
    api = new PlexApiClient({ baseUrl: url, token, timeoutMs: ctx.services.probeTimeoutMs, fetch: ctx.services.fetch });
    libraries = await api.listLibraries();
  } catch (error) {
    throw new UserError(`Plex check failed: ${messageOf(error)}`, 1);
  }
  ctx.say(
    `Plex at ${api.where}: ${libraries.length} ${libraries.length === 1 ? "library" : "libraries"} (${libraries.map((l) => l.title).join(", ")})`,
  );
  return { url: api.where, token, libraries, api };
}

async function signIn(ctx: PlexStepContext): Promise<PlexChoice> {
  const { pinWait, probeTimeoutMs } = ctx.services;
  const plexTv = await ctx.services.plexTv();
  const pin = await plexTv.createPin();
  ctx.say();
  ctx.say("Sign in to Plex: on any device, open https://plex.tv/link and enter this code:");
  ctx.say();
  for (const line of bigCode(pin.code)) ctx.say(`    ${line}`);
  ctx.say();
  ctx.say(`    (${pin.code})   or open: ${plexTv.authUrl(pin)}`);
  ctx.say();
  ctx.say("Waiting for the sign-in (Ctrl-C stops; nothing is written until the end)...");
  const accountToken = await waitForSignIn(plexTv, pin, { ...pinWait, signal: ctx.signal });
  const servers = ownedServers(await plexTv.listResources(accountToken));
  if (servers.length === 0) {
    throw new UserError("this Plex account owns no server (a server shared with it cannot scan): sign in as the server's owner", 1);
  }
  const server = await pickServer(ctx, servers);
  ctx.say(`Trying the addresses of "${server.name}" (local first)...`);
  const reached = await reachServer(server, probeTimeoutMs, ctx.services.fetch).catch((error: unknown) => {
    throw new UserError(messageOf(error), 1);
  });
  ctx.say(`Plex "${reached.name}" answers at ${reached.url}; its own token will be used (not the account's).`);
  return checkServer(ctx, reached.url, reached.token);
}

async function pickServer(ctx: PlexStepContext, servers: PlexResource[]): Promise<PlexResource> {
  const [only] = servers;
  if (servers.length === 1 && only) return only;
  return ctx.prompt.select({
    message: "Which Plex server should scanarr scan?",
    choices: servers.map((s) => ({ name: s.name, value: s })),
    flag: "--plex-url and --plex-token (the account owns several servers)",
  });
}
