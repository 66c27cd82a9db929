import ts from "typescript";
import type { Description } from "./descriptions.js";
import { interfaceSchemas, type JsonSchema, propertyName, typeSchema } from "./interface-schemas.js";

/** What one generated method of the client says of its operation. */
interface GeneratedCall {
  operationId: string;
  method: string;
  path: string;
  paramsType: string | undefined;
  requiredParams: string[];
  pathParams: string[];
  answerType: string | undefined;
}

/** Parameters every method takes that are the client's own, not the request's. */
const CLIENT_ONLY = new Set(["auth", "requestBody", "media"]);

/**
 * Google Drive v3's description, rebuilt from the client `@googleapis/drive`
 * generates from Google's discovery document (its `v3.ts`): each
 * `Resource$…` method names its operation's URL, method, required and path
 * parameters, its `Params$Resource$…` interface every query parameter (with
 * the `StandardParameters` all methods share) and its request body, and
 * `createAPIRequest<Schema$…>` the answer, whose `Schema$…` interface
 * becomes the JSON schema. The file is only parsed, never type-checked.
 */
export function describeDriveFromClient(source: string): Description {
  const file = ts.createSourceFile("v3.ts", source, ts.ScriptTarget.Latest, true);
  const interfaces = new Map<string, ts.InterfaceDeclaration>();
  const calls: GeneratedCall[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isInterfaceDeclaration(node)) interfaces.set(node.name.text, node);
    else if (ts.isClassDeclaration(node) && node.name?.text.startsWith("Resource$")) {
      const resource = node.name.text.slice("Resource$".length).split("$").map(lowerFirst).join(".");
      for (const member of node.members)
        if (ts.isMethodDeclaration(member) && member.body && ts.isIdentifier(member.name))
          calls.push(readCall(`${resource}.${member.name.text}`, member.body));
    }
    ts.forEachChild(node, visit);
  };
  visit(file);

  const schemas = interfaceSchemas(
    [...interfaces.values()].filter((i) => i.name.text.startsWith("Schema$")),
    "Schema$",
  );
  const standard = interfaces.get("StandardParameters");
  const paths: Description["paths"] = {};
  for (const call of calls) {
    const params = call.paramsType ? interfaces.get(call.paramsType) : undefined;
    const members = [...(standard?.members ?? []), ...(params?.members ?? [])];
    const parameters: unknown[] = [];
    let requestBody: unknown;
    for (const member of members) {
      if (!ts.isPropertySignature(member) || !member.type) continue;
      const name = propertyName(member);
      if (name === "requestBody") requestBody = { content: { "application/json": { schema: typeSchema(member.type, "Schema$") } } };
      if (CLIENT_ONLY.has(name)) continue;
      const where = call.pathParams.includes(name) ? "path" : "query";
      parameters.push({ name, in: where, required: call.requiredParams.includes(name), schema: typeSchema(member.type, "Schema$") });
    }
    paths[call.path] ??= {};
    (paths[call.path] as Record<string, unknown>)[call.method] = {
      operationId: call.operationId,
      parameters,
      ...(requestBody ? { requestBody } : {}),
      responses: { "200": answerOf(call.answerType) },
    };
  }
  return {
    openapi: "3.0.0",
    info: { title: "Google Drive API v3 (from @googleapis/drive's generated client)", version: "v3" },
    servers: [{ url: "https://www.googleapis.com/" }],
    paths,
    components: {
      schemas,
      securitySchemes: { oauth2: { type: "http", scheme: "bearer" } },
    },
    security: [{ oauth2: [] }],
  };
}

function answerOf(type: string | undefined): Record<string, unknown> {
  if (!type?.startsWith("Schema$")) return { description: "no body" };
  const schema: JsonSchema = { $ref: `#/components/schemas/${type.slice("Schema$".length)}` };
  return { description: type, content: { "application/json": { schema } } };
}

function readCall(operationId: string, body: ts.Block): GeneratedCall {
  const call: GeneratedCall = {
    operationId,
    method: "",
    path: "",
    paramsType: undefined,
    requiredParams: [],
    pathParams: [],
    answerType: undefined,
  };
  const visit = (node: ts.Node): void => {
    if (ts.isAsExpression(node) && ts.isTypeReferenceNode(node.type) && node.type.typeName.getText().startsWith("Params$"))
      call.paramsType = node.type.typeName.getText();
    else if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name)) {
      const key = node.name.text;
      if (key === "url") call.path = firstString(node.initializer) ?? "";
      else if (key === "method") call.method = (firstString(node.initializer) ?? "").toLowerCase();
      else if (key === "requiredParams") call.requiredParams = strings(node.initializer);
      else if (key === "pathParams") call.pathParams = strings(node.initializer);
    } else if (ts.isCallExpression(node) && node.expression.getText() === "createAPIRequest")
      call.answerType = node.typeArguments?.[0]?.getText();
    ts.forEachChild(node, visit);
  };
  visit(body);
  if (!call.path || !call.method) throw new Error(`drive description: ${operationId} names no url or method`);
  return call;
}

/** The first string literal inside `(rootUrl + '/drive/v3/files').replace(…)`: the path. */
function firstString(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node)) return node.text;
  let found: string | undefined;
  node.forEachChild((child) => {
    found ??= firstString(child);
  });
  return found;
}

function strings(node: ts.Expression): string[] {
  return ts.isArrayLiteralExpression(node) ? node.elements.flatMap((e) => (ts.isStringLiteral(e) ? [e.text] : [])) : [];
}

const lowerFirst = (text: string): string => text.charAt(0).toLowerCase() + text.slice(1);
