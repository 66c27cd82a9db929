// HEALTHCHECK of the container image: exit 0 when scanarr's /health answers 200, 1 otherwise.
// The port comes from the config (or SCANARR_SERVER_PORT), so changing SERVER_PORT does not break the check.
import { readFileSync } from "node:fs";
import path from "node:path";

const installDir = process.env.SCANARR_INSTALL_DIR || "/";
let port = 3468;
try {
  const config = JSON.parse(readFileSync(path.join(installDir, "config", "config.json"), "utf8"));
  if (Number.isInteger(config.SERVER_PORT) && config.SERVER_PORT > 0) port = config.SERVER_PORT;
} catch {
  // No config yet or unreadable: the default port.
}
// SCANARR_SERVER_PORT sets the port over the file (docs/configuration.md, "From the environment").
const fromEnv = Number(process.env.SCANARR_SERVER_PORT?.trim() || Number.NaN);
if (Number.isInteger(fromEnv) && fromEnv > 0) port = fromEnv;
try {
  const response = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(4000) });
  const body = await response.json().catch(() => ({}));
  console.log(`${response.status} ${body.status ?? ""} ${(body.reasons ?? []).join("; ")}`.trim());
  process.exit(response.status === 200 ? 0 : 1);
} catch (error) {
  console.log(`no answer on port ${port}: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
