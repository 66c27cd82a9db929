import type { Library } from "../domain.js";
import { UserError } from "../domain.js";
import type { TargetConfig } from "../config/types.js";
import { messageOf } from "../lib/errors.js";
import { EmbyApiClient } from "../targets/emby/api.js";
import { JellyfinApiClient } from "../targets/jellyfin/api.js";
import type { MediaBrowserClient } from "../targets/media-browser/client.js";
import { splitUrlAndKey, type SetupContext } from "./context.js";

export type MediaBrowserType = "jellyfin" | "emby";

/** A Jellyfin or Emby server that answered with its API key: a TARGETS entry to write or keep. */
export interface MediaServerChoice {
  type: MediaBrowserType;
  /** The entry's NAME: the existing entry's, else the type. */
  name: string;
  url: string;
  token: string;
  libraries: Library[];
  api: MediaBrowserClient;
}

const LABEL: Record<MediaBrowserType, string> = { jellyfin: "Jellyfin", emby: "Emby" };

type MediaStepContext = Pick<SetupContext, "prompt" | "say" | "interactive" | "flags" | "current" | "services">;

/**
 * Step 2 (optional): a Jellyfin and an Emby server. A flag `<url>,<api key>`
 * answers it; on a terminal the user may add or change one; without one an
 * entry already in TARGETS is checked and kept. The key is proven by listing
 * the libraries (a wrong key names the server and the key).
 */
export async function chooseMediaServers(ctx: MediaStepContext): Promise<MediaServerChoice[]> {
  const chosen: MediaServerChoice[] = [];
  for (const type of ["jellyfin", "emby"] as const) {
    const choice = await chooseOne(ctx, type);
    if (choice) chosen.push(choice);
  }
  return chosen;
}

async function chooseOne(ctx: MediaStepContext, type: MediaBrowserType): Promise<MediaServerChoice | undefined> {
  const label = LABEL[type];
  const flag = ctx.flags[type];
  const existing = ctx.current.TARGETS.find((t) => t.TYPE === type);
  if (flag !== undefined) {
    const { url, key } = splitUrlAndKey(flag, `--${type}`);
    return checkMediaServer(ctx, type, existing, url, key);
  }
  if (!ctx.interactive) return existing ? checkMediaServer(ctx, type, existing, existing.URL, existing.TOKEN) : undefined;
  const wanted = await ctx.prompt.confirm({
    message: existing ? `${label}: keep scanning ${existing.URL} too?` : `Do you also run ${label}? (scanarr can scan it too)`,
    default: existing !== undefined,
    flag: `--${type}`,
  });
  if (!wanted) return undefined;
  for (;;) {
    const url = await ctx.prompt.input({ message: `${label} URL:`, default: existing?.URL ?? "http://localhost:8096", flag: `--${type}` });
    const typed = await ctx.prompt.password({
      message: `${label} API key (Dashboard > API Keys)${existing ? "; empty keeps the current one" : ""}:`,
      flag: `--${type}`,
    });
    const key = typed === "" && existing ? existing.TOKEN : typed;
    try {
      return await checkMediaServer(ctx, type, existing, url, key);
    } catch (error) {
      ctx.say(messageOf(error));
      if (!(await ctx.prompt.confirm({ message: `Try ${label} again?`, default: true, flag: `--${type}` }))) return undefined;
    }
  }
}

async function checkMediaServer(
  ctx: MediaStepContext,
  type: MediaBrowserType,
  existing: TargetConfig | undefined,
  url: string,
  token: string,
): Promise<MediaServerChoice> {
  const label = LABEL[type];
  const options = {
    baseUrl: url,
    token,
    urlKey: `the ${label} URL`,
    tokenKey: `the ${label} API key`,
    timeoutMs: ctx.services.probeTimeoutMs,
    fetch: ctx.services.fetch,
  };
  let api: MediaBrowserClient;
  let libraries: Library[];
  try {
    api = type === "jellyfin" ? new JellyfinApiClient(options) : new EmbyApiClient(options);
    libraries = await api.listLibraries();
  } catch (error) {
    throw new UserError(`${label} check failed: ${messageOf(error)}`, 1);
  }
  ctx.say(`${label} at ${url.replace(/\/+$/, "")}: ${libraries.length} libraries (${libraries.map((l) => l.title).join(", ")})`);
  return { type, name: existing?.NAME ?? type, url: url.replace(/\/+$/, ""), token, libraries, api };
}
