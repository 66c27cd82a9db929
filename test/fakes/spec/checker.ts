import type { IncomingHttpHeaders } from "node:http";
import ajvFormats from "ajv-formats";
import { OpenAPIBackend, type Operation } from "openapi-backend";
import { applyGaps } from "../spec-gaps.js";
import { loadDescription, type DescribedServer, type Description } from "./descriptions.js";

/** A request as a fake received it, its path relative to the description's server (base path removed). */
export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What the description says of a request: its operation (if any) and every way the request departs from it. */
export interface RequestVerdict {
  operation: Operation | undefined;
  problems: string[];
}

export interface SpecChecker {
  server: DescribedServer;
  checkRequest(request: SeenRequest): RequestVerdict;
  checkResponse(operation: Operation, status: number, contentType: string, body: string): string[];
}

/** ASP.NET Core (Jellyfin, the *arr apps) and ServiceStack (Emby) read paths and query names in any case. */
const CASE_INSENSITIVE: ReadonlySet<DescribedServer> = new Set(["emby", "jellyfin", "sonarr", "radarr", "lidarr", "readarr"]);

/** OpenAPI's own formats (and .NET's guid) that ajv-formats does not define: accepted as they come. */
const LOOSE_FORMATS = ["int32", "int64", "float", "double", "byte", "binary", "password", "guid", "uri-reference", "decimal"];

const checkers = new Map<DescribedServer, Promise<SpecChecker>>();

/**
 * The checker of one server's description, built once per test process on
 * first use. Schemas are compiled per operation when first needed (a
 * description holds hundreds of operations; a test touches a few).
 */
export function specChecker(server: DescribedServer): Promise<SpecChecker> {
  let checker = checkers.get(server);
  if (!checker) {
    checker = loadDescription(server).then((description) => buildChecker(server, applyGaps(server, description)));
    checkers.set(server, checker);
  }
  return checker;
}

function buildChecker(server: DescribedServer, description: Description): SpecChecker {
  const api = new OpenAPIBackend({
    definition: description as never,
    quick: true,
    coerceTypes: true,
    customizeAjv: (ajv) => {
      ajvFormats.default(ajv);
      for (const format of LOOSE_FORMATS) if (!ajv.formats[format]) ajv.addFormat(format, true);
      return ajv;
    },
  });
  api.init();
  const insensitive = CASE_INSENSITIVE.has(server);
  const segments = new Map<string, string>();
  for (const template of Object.keys(description.paths))
    for (const segment of template.split("/")) if (!segment.includes("{")) segments.set(segment.toLowerCase(), segment);
  const schemes = ((description.components as Record<string, unknown> | undefined)?.securitySchemes ?? {}) as Record<string, Scheme>;
  const queryKeys = new Set(
    Object.values(schemes).flatMap((scheme) => (scheme.in === "query" && scheme.name ? [scheme.name.toLowerCase()] : [])),
  );

  return {
    server,
    checkRequest(request) {
      const path = insensitive
        ? request.path
            .split("/")
            .map((s) => segments.get(s.toLowerCase()) ?? s)
            .join("/")
        : request.path;
      const method = request.method.toLowerCase();
      const operation = api.router.matchOperation({ method, path, headers: {} });
      if (!operation) return { operation, problems: ["no operation of the description has this method and path"] };
      const problems: string[] = [];
      const query = queryObject(request.query, insensitive ? operation : undefined);
      // A key in the query is a credential, checked by authorized(), not a parameter.
      const parameters = Object.fromEntries(Object.entries(query).filter(([name]) => !queryKeys.has(name.toLowerCase())));
      const body = readBody(operation, request, problems);
      try {
        const result = api.validator.validateRequest(
          { method, path, headers: request.headers as never, query: parameters, body },
          operation,
        );
        for (const error of result.errors ?? []) problems.push(describeError(error));
      } catch (error) {
        // A few *arr schemas say `nullable` without `type`, which ajv refuses to compile: that request's schema goes unchecked.
        if (!/nullable.*without.*type/.test(String(error))) throw error;
      }
      if (!authorized(operation, description, schemes, request, query)) problems.push("carries none of the credentials it declares");
      return { operation, problems };
    },
    checkResponse(operation, status, contentType, body) {
      const responses = (operation.responses ?? {}) as Record<string, { content?: Record<string, unknown> }>;
      const described = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
      // Error answers stand for a server that is down, misconfigured or refusing: the fakes give them on purpose.
      if (!described) return status < 400 ? [`answers ${status}, which the description does not list`] : [];
      const jsonSchema = Object.keys(described.content ?? {}).some((type) => /json/i.test(type));
      if (!jsonSchema || !/json/i.test(contentType) || body === "") return [];
      let data: unknown;
      try {
        data = JSON.parse(body);
      } catch {
        return [`answers ${status} with a body that is not JSON`];
      }
      try {
        const result = api.validator.validateResponse(data, operation as never, status);
        return (result.errors ?? []).map((error) => `answer ${status}: ${describeError(error)}`);
      } catch (error) {
        // A few *arr schemas say `nullable` without `type`, which ajv refuses to compile: that answer goes unchecked.
        if (/nullable.*without.*type/.test(String(error))) return [];
        throw error;
      }
    },
  };
}

/** The query as an object, names spelled as the operation spells them when the server ignores case. */
function queryObject(search: URLSearchParams, operation: Operation | undefined): Record<string, string | string[]> {
  const spelled = new Map<string, string>();
  for (const parameter of (operation?.parameters ?? []) as Array<{ in?: string; name?: string }>)
    if (parameter.in === "query" && parameter.name) spelled.set(parameter.name.toLowerCase(), parameter.name);
  const query: Record<string, string | string[]> = {};
  for (const [raw, value] of search) {
    const name = spelled.get(raw.toLowerCase()) ?? raw;
    const before = query[name];
    query[name] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
  }
  return query;
}

function readBody(operation: Operation, request: SeenRequest, problems: string[]): unknown {
  const content = (operation.requestBody as { content?: Record<string, unknown> } | undefined)?.content ?? {};
  if (request.body === "" || !Object.keys(content).some((type) => /json/i.test(type))) return undefined;
  try {
    return JSON.parse(request.body);
  } catch {
    problems.push("has a body that is not JSON");
    return undefined;
  }
}

/** A security scheme as the checker reads it: an api key, or HTTP authentication (Drive's OAuth bearer token). */
interface Scheme {
  type?: string;
  in?: string;
  name?: string;
  scheme?: string;
}

/**
 * Whether one of the operation's security requirements is met: each api key
 * it names is in its header or query, each HTTP scheme in Authorization.
 */
function authorized(
  operation: Operation,
  description: Description,
  schemes: Record<string, Scheme>,
  request: SeenRequest,
  query: Record<string, unknown>,
): boolean {
  const requirements = (operation.security ?? description.security ?? []) as Array<Record<string, unknown>>;
  if (requirements.length === 0 || requirements.some((r) => Object.keys(r).length === 0)) return true;
  const queryNames = new Set(Object.keys(query).map((name) => name.toLowerCase()));
  return requirements.some((requirement) =>
    Object.keys(requirement).every((name) => {
      const scheme = schemes[name];
      if (scheme?.type === "http" && scheme.scheme)
        return String(request.headers.authorization ?? "")
          .toLowerCase()
          .startsWith(`${scheme.scheme.toLowerCase()} `);
      if (scheme?.type !== "apiKey" || !scheme.name) return false;
      if (scheme.in === "header") return Boolean(request.headers[scheme.name.toLowerCase()]);
      return scheme.in === "query" && queryNames.has(scheme.name.toLowerCase());
    }),
  );
}

function describeError(error: { instancePath?: string; message?: string; params?: Record<string, unknown> }): string {
  const extra = error.params?.additionalProperty ?? error.params?.allowedValues ?? error.params?.missingProperty;
  return `${error.instancePath || "/"} ${error.message ?? "is invalid"}${extra === undefined ? "" : ` (${JSON.stringify(extra)})`}`;
}
