import { readTextFile } from "../lib/text-file.js";
import { generateServerPass } from "../config/defaults.js";
import { parseConfigText } from "../config/load.js";
import { TARGET_CONFIGS } from "../targets/registry.js";
import { starterConfigText } from "../config/starter.js";
import { installationClientId } from "../plex-tv/client-id.js";
import { PlexTvClient } from "../plex-tv/client.js";
import { abortableSleep } from "../plex-tv/sign-in.js";
import type { SetupContext } from "../setup/context.js";
import { createInquirerPrompt } from "../setup/inquirer-prompt.js";
import { createNoTerminalPrompt } from "../setup/prompt.js";
import { runSetup } from "../setup/run-setup.js";
import { packageVersion } from "../lib/version.js";
import type { CommandContext } from "./context.js";
import { run as runDoctor } from "./doctor.js";
import { isScanarrRunning } from "./connect.js";
import { nextStepCommand } from "./command-line.js";
import { configuredWebhookUrl } from "./webhook-url.js";
import { writeLine } from "./output.js";

export interface SetupOptions {
  plexUrl?: string;
  plexToken?: string;
  plexPin?: boolean;
  arr?: string[];
  jellyfin?: string;
  emby?: string;
  yes?: boolean;
  /** Host name the *arr apps reach scanarr by (as `scanarr url --host`). */
  host?: string;
}

/** How long the PIN is waited for at most; plex.tv's own PIN lives about 30 minutes. */
const PIN_DEADLINE_MS = 15 * 60_000;

/**
 * `scanarr setup`: the wizard (questions on a terminal, flags otherwise),
 * then doctor on what it wrote, then the command to run next.
 */
export async function run(options: SetupOptions, ctx: CommandContext): Promise<number> {
  const file = ctx.paths.configFile;
  const text = await readTextFile(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  const starterText = starterConfigText(generateServerPass());
  const terminal = Boolean((ctx.stdin as { isTTY?: boolean }).isTTY && (ctx.stdout as { isTTY?: boolean }).isTTY);
  const interactive = terminal && !options.yes;
  const say = (line = "") => writeLine(ctx.stdout, line);
  const plexTvUrl = ctx.env.PLEX_TV_URL || "https://plex.tv";
  const setup: SetupContext = {
    prompt: interactive ? createInquirerPrompt(ctx.stdin, ctx.stdout, ctx.signal) : createNoTerminalPrompt(),
    say,
    interactive,
    flags: { ...options, arr: options.arr ?? [] },
    // Read here, not by the shell: a --config naming a file that does not exist yet is where the set-up writes.
    current: parseConfigText(text ?? starterText, TARGET_CONFIGS, file, []).written,
    services: {
      plexTv: async () =>
        new PlexTvClient({ baseUrl: plexTvUrl, clientId: await installationClientId(ctx.paths.dataDir), version: packageVersion() }),
      pinWait: { intervalMs: 1_000, deadlineMs: PIN_DEADLINE_MS, now: () => Date.now(), sleep: abortableSleep },
      probeTimeoutMs: 5_000,
    },
    signal: ctx.signal,
  };
  const result = await runSetup(
    setup,
    { path: file, text, starterText },
    {
      webhookUrl: (config) => configuredWebhookUrl(config, options.host),
      isScanarrRunning: (config) => isScanarrRunning({ config }, configuredWebhookUrl(config, options.host)),
    },
  );
  if (!result.config) return 0;
  say();
  say("Checking the set-up (scanarr doctor):");
  // What serve will run: the file as written, with the SCANARR_ variables over it.
  const effective = parseConfigText(await readTextFile(file), TARGET_CONFIGS, file, [], ctx.env);
  const doctor = await runDoctor({}, { ...ctx, config: effective.config, unmet: [], configSources: effective.sources });
  const scanarr = nextStepCommand(ctx);
  say();
  say(`Next: ${scanarr} serve        (as a service: docs/running.md)`);
  say(`      ${scanarr} doctor       checks the set-up again; ${scanarr} setup changes it.`);
  return doctor !== 0 || result.failedConnections > 0 ? 1 : 0;
}
