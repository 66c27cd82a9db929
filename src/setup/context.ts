import { UserError } from "../domain.js";
import type { Config } from "../config/types.js";
import type { PlexTvClient } from "../plex-tv/client.js";
import type { PinWait } from "../plex-tv/sign-in.js";
import type { SetupPrompt } from "./prompt.js";

/** What the command line answered in advance; each flag set skips its question. */
export interface SetupFlags {
  plexUrl?: string;
  plexToken?: string;
  /** Sign in with a PIN even where a URL and token could be kept. */
  plexPin?: boolean;
  /** `<url>,<api key>` of each *arr app. */
  arr: string[];
  jellyfin?: string;
  emby?: string;
  /** Accept what the set-up found (mappings, the write, the connections) without asking. */
  yes?: boolean;
}

/** The outside world the steps reach, injected so tests use loopback fakes. */
export interface SetupServices {
  /** plex.tv, made on first use (its client identifier is then created under data/ if new). */
  plexTv: () => Promise<PlexTvClient>;
  pinWait: Omit<PinWait, "signal">;
  /** Per address tried, when picking a Plex connection, and per check of a typed URL. */
  probeTimeoutMs: number;
  fetch?: typeof fetch;
}

/**
 * The set-up's state, create-astro style: the injected prompt and output,
 * the flags, the config it starts from, and the services. Each step takes
 * the fields it needs (`Pick<SetupContext, …>`) and returns its answer;
 * nothing is written until every question is answered.
 */
export interface SetupContext {
  prompt: SetupPrompt;
  /** One line of output (the steps never write to a stream themselves). */
  say: (line?: string) => void;
  /** False without a terminal or with --yes: only flags and the current config answer. */
  interactive: boolean;
  flags: SetupFlags;
  /** The config as it is now (the defaults when there is no file yet). */
  current: Config;
  services: SetupServices;
  signal: AbortSignal;
}

/** `<url>,<api key>` as a flag gives it; the flag's name is used in the message. */
export function splitUrlAndKey(value: string, flag: string): { url: string; key: string } {
  const at = value.indexOf(",");
  const url = at < 0 ? "" : value.slice(0, at).trim();
  const key = at < 0 ? "" : value.slice(at + 1).trim();
  if (url === "" || key === "") {
    // The value may hold a key: name the shape, never echo it.
    throw new UserError(`${flag} takes <url>,<api key> (one comma between them)`, 2);
  }
  return { url, key };
}

/** Refuses a flag in the wrong shape before anything is asked or contacted. */
export function checkFlagShapes(flags: SetupFlags): void {
  for (const value of flags.arr) splitUrlAndKey(value, "--arr");
  if (flags.jellyfin !== undefined) splitUrlAndKey(flags.jellyfin, "--jellyfin");
  if (flags.emby !== undefined) splitUrlAndKey(flags.emby, "--emby");
  if (flags.plexPin && (flags.plexUrl !== undefined || flags.plexToken !== undefined)) {
    throw new UserError("--plex-pin signs in instead of --plex-url/--plex-token: give one or the other", 2);
  }
}
