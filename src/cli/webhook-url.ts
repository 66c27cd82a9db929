import { hostname } from "node:os";
import type { Config } from "../config/types.js";
import { UserError } from "../domain.js";

/** The address the *arr apps post to: http://<host>:<port>/<pass>. */
export function webhookUrl(port: number, pass: string, host: string): string {
  if (port === 0)
    throw new UserError("SERVER_PORT is 0 (a free port picked at start): the URL is in the log line `listening on` of serve", 1);
  const shown = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return `http://${shown}:${port}/${encodeURIComponent(pass)}`;
}

/** This scanarr's webhook URL from its config; `host` as the apps reach it, else SERVER_IP (this machine's name for 0.0.0.0). */
export function configuredWebhookUrl(config: Pick<Config, "SERVER_IP" | "SERVER_PORT" | "SERVER_PASS">, host?: string): string {
  return webhookUrl(config.SERVER_PORT, config.SERVER_PASS, host ?? defaultHost(config.SERVER_IP));
}

function defaultHost(ip: string): string {
  return ip === "0.0.0.0" || ip === "::" ? hostname() : ip;
}
