import * as generated from "@jellyfin/sdk/lib/generated-client/index.js";
import type { Description } from "./descriptions.js";

type Creator = Record<string, (...args: unknown[]) => Promise<{ url: string; options: { method?: string; data?: unknown } }>>;

/**
 * Jellyfin's OpenAPI file is not published outside Git LFS, but
 * `@jellyfin/sdk` 0.13.0 is generated from it: each operation's request
 * builder knows its method, path, query parameters, body and whether it
 * sends the `Authorization` key. Calling every builder with a marker value
 * per argument and reading where each marker lands rebuilds those facts as
 * an OpenAPI 3.0 document. The SDK carries no schemas at run time, so
 * parameters, bodies and answers are not typed here (see spec-gaps.ts).
 */
export async function describeJellyfinFromSdk(): Promise<Description> {
  const paths: Description["paths"] = {};
  for (const [name, factory] of Object.entries(generated)) {
    if (!name.endsWith("ApiAxiosParamCreator") || typeof factory !== "function") continue;
    const creators = (factory as (configuration: unknown) => Creator)({ apiKey: "key" });
    for (const [operationId, create] of Object.entries(creators)) {
      const names = argumentNames(create);
      const markers = names.map((_, i) => `m${i}x`);
      const { url, options } = await create(...markers);
      const parsed = new URL(url, "http://sdk");
      let template = decodeURIComponent(parsed.pathname);
      const parameters: Array<Record<string, unknown>> = [];
      let body = false;
      names.forEach((argument, i) => {
        const marker = markers[i] as string;
        if (template.includes(marker)) {
          template = template.replace(marker, `{${argument}}`);
          parameters.push({ name: argument, in: "path", required: true, schema: {} });
        } else if (String(options.data ?? "").includes(marker)) body = true;
      });
      for (const key of new Set(parsed.searchParams.keys())) parameters.push({ name: key, in: "query", schema: {} });
      const method = (options.method ?? "GET").toLowerCase();
      const authorized = /setApiKeyToObject\([^,]+,\s*"Authorization"/.test(String(create));
      paths[template] ??= {};
      (paths[template] as Record<string, unknown>)[method] = {
        operationId,
        parameters,
        ...(body ? { requestBody: { content: { "application/json": { schema: {} } } } } : {}),
        responses: { default: { description: "the SDK carries no answer schemas" } },
        security: authorized ? [{ CustomAuthentication: [] }] : [],
      };
    }
  }
  return {
    openapi: "3.0.0",
    info: { title: "Jellyfin API (from @jellyfin/sdk 0.13.0)", version: "10.10" },
    paths,
    components: { securitySchemes: { CustomAuthentication: { type: "apiKey", in: "header", name: "Authorization" } } },
  };
}

/** `async (itemId, userId, options = {}) => …` → ["itemId", "userId"]: the positional arguments before `options`. */
function argumentNames(fn: unknown): string[] {
  const head = /^async\s*\(([^)]*)\)/.exec(String(fn))?.[1] ?? "";
  return head
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "" && !part.includes("="));
}
