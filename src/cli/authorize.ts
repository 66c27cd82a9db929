import { UserError } from "../domain.js";
import { createAuthorizationRequest } from "../auth/authorization-request.js";
import { awaitAuthorizationCode } from "../auth/await-authorization.js";
import { assertClientConfigured, assertCloudEnabled } from "../auth/drive-auth.js";
import { startLoopbackListener } from "../auth/loopback-listener.js";
import { createServiceAccountAuth } from "../auth/service-account.js";
import { exchangeCode } from "../auth/token-exchange.js";
import { writeToken } from "../auth/token-store.js";
import { verifyDriveAccess } from "../auth/verify-access.js";
import type { CommandContext } from "./context.js";
import { paint, writeLine } from "./output.js";

export interface AuthorizeOptions {
  /** Port of the loopback listener on 127.0.0.1; 0 or absent picks a free one. */
  port?: string | number;
}

const PASTE_PROMPT = "Paste the address (or only the code) and press Enter: ";

/** `scanarr authorize`: store a Drive token (OAuth + PKCE) or check a service account. */
export async function run(options: AuthorizeOptions, ctx: CommandContext): Promise<number> {
  assertCloudEnabled(ctx.config);
  if (ctx.config.CLOUD.RCLONE_REMOTE) return explainRemoteMode(ctx);
  if (ctx.config.CLOUD.SERVICE_ACCOUNT_FILE) return checkServiceAccount(ctx);
  assertClientConfigured(ctx.config);
  const cloud = ctx.config.CLOUD;
  const listener = await startLoopbackListener(parsePort(options.port));
  try {
    const request = createAuthorizationRequest({
      authUrl: cloud.AUTH_URL,
      clientId: cloud.CLIENT_ID,
      redirectUri: listener.redirectUri,
    });
    listener.expect(request.state);
    printInstructions(ctx, request.url, listener.port);
    // An interruption rejects with an InterruptedError, which the CLI turns into exit 130.
    const received = await awaitAuthorizationCode({
      fromBrowser: listener.code,
      input: ctx.stdin,
      state: request.state,
      signal: ctx.signal,
      onRetry: (reason) => {
        writeLine(ctx.stdout, reason);
        ctx.stdout.write(PASTE_PROMPT);
      },
    });
    // The prompt line is still open when the browser answers first.
    if (received.via === "browser") writeLine(ctx.stdout, "(received from the browser)");
    const code = received.code;
    ctx.logger.info({ tokenUrl: cloud.TOKEN_URL }, "Requesting access token for the authorization code");
    const token = await exchangeCode({
      tokenUrl: cloud.TOKEN_URL,
      clientId: cloud.CLIENT_ID,
      clientSecret: cloud.CLIENT_SECRET,
      code,
      codeVerifier: request.codeVerifier,
      redirectUri: request.redirectUri,
      now: Date.now(),
    });
    ctx.logger.info("Retrieved first access token");
    await writeToken(ctx.paths.tokenFile, token);
    ctx.logger.info({ tokenFile: ctx.paths.tokenFile }, "Access tokens were successfully retrieved");
    writeLine(ctx.stdout, `Stored the drive token in ${ctx.paths.tokenFile} (mode 0600).`);
    printRestart(ctx);
    return 0;
  } finally {
    await listener.close();
  }
}

async function checkServiceAccount(ctx: CommandContext): Promise<number> {
  const cloud = ctx.config.CLOUD;
  const credentials = await createServiceAccountAuth(cloud.SERVICE_ACCOUNT_FILE, cloud.TOKEN_URL);
  await verifyDriveAccess(credentials, cloud.API_URL);
  ctx.logger.info({ account: credentials.email }, "Service account can read Google Drive");
  writeLine(ctx.stdout, `Service account ${credentials.email ?? ""} can read Google Drive; no browser authorization is needed.`);
  writeLine(
    ctx.stdout,
    "It sees only the shared drives it was added to as a member: list them in CLOUD.TEAMDRIVES and set CLOUD.TEAMDRIVE to true.",
  );
  printRestart(ctx);
  return 0;
}

/** CLOUD.RCLONE_REMOTE brings its own client and token: nothing to authorize here. */
function explainRemoteMode(ctx: CommandContext): number {
  const remote = ctx.config.CLOUD.RCLONE_REMOTE;
  writeLine(
    ctx.stdout,
    `Drive monitoring uses the rclone remote "${remote}" (CLOUD.RCLONE_REMOTE) with that remote's own client id and token: no authorization is needed here.`,
  );
  writeLine(
    ctx.stdout,
    "Check the remote with `scanarr doctor`; if its token is refused, run `rclone config reconnect <remote>:` and restart scanarr.",
  );
  return 0;
}

function printInstructions(ctx: CommandContext, url: string, port: number): void {
  const c = paint(ctx.color);
  const out = ctx.stdout;
  writeLine(out, "Open this address in a browser and allow access to Google Drive:");
  writeLine(out);
  writeLine(out, `  ${c.cyan(url)}`);
  writeLine(out);
  writeLine(out, `After you click Allow, the browser is sent to http://127.0.0.1:${port}/.`);
  writeLine(out, `- Browser on this machine, or tunnelled with \`ssh -L ${port}:127.0.0.1:${port} <this host>\`: this finishes by itself.`);
  writeLine(out, "- Otherwise that page fails to load: copy the whole address from the address bar and paste it here.");
  out.write(PASTE_PROMPT);
}

function printRestart(ctx: CommandContext): void {
  writeLine(ctx.stdout);
  writeLine(ctx.stdout, "Restart the service so drive monitoring starts:");
  writeLine(ctx.stdout, "  systemd:  sudo systemctl restart scanarr");
  writeLine(ctx.stdout, "  Docker:   docker restart scanarr    (compose: docker compose restart scanarr)");
  writeLine(ctx.stdout, "  by hand:  stop `scanarr serve` (Ctrl-C) and start it again");
}

function parsePort(value: string | number | undefined): number {
  if (value === undefined) return 0;
  const port = typeof value === "number" ? value : Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UserError(`--port must be a whole number from 0 to 65535, not ${String(value)}.`, 2);
  }
  return port;
}
