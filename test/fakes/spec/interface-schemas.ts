import ts from "typescript";

export type JsonSchema = Record<string, unknown>;

/**
 * JSON schemas of a generated client's plain data interfaces, read from the
 * syntax alone: primitives, arrays, references to other interfaces of the
 * set (named without `prefix`), object literals and index signatures. A
 * `| null` is dropped: the generator adds it to every field so that callers
 * may clear one, while the server leaves a field out rather than send null.
 * An interface lists every field of its resource, so its objects are
 * closed (`additionalProperties: false`) unless it has an index signature.
 */
export function interfaceSchemas(declarations: readonly ts.InterfaceDeclaration[], prefix: string): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {};
  for (const declaration of declarations) schemas[declaration.name.text.slice(prefix.length)] = objectSchema(declaration.members, prefix);
  return schemas;
}

/** One type's schema; `prefix` marks the names that are references to the set's interfaces. */
export function typeSchema(type: ts.TypeNode, prefix: string): JsonSchema {
  if (ts.isParenthesizedTypeNode(type)) return typeSchema(type.type, prefix);
  if (ts.isUnionTypeNode(type)) {
    const kept = type.types.filter((t) => !(ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword));
    const [only] = kept;
    return kept.length === 1 && only ? typeSchema(only, prefix) : { anyOf: kept.map((t) => typeSchema(t, prefix)) };
  }
  if (ts.isArrayTypeNode(type)) return { type: "array", items: typeSchema(type.elementType, prefix) };
  if (ts.isTypeLiteralNode(type)) return objectSchema(type.members, prefix);
  if (ts.isLiteralTypeNode(type) && ts.isStringLiteral(type.literal)) return { type: "string", enum: [type.literal.text] };
  if (ts.isTypeReferenceNode(type)) {
    const name = type.typeName.getText();
    const [element] = type.typeArguments ?? [];
    if (name === "Array" && element) return { type: "array", items: typeSchema(element, prefix) };
    if (name.startsWith(prefix)) return { $ref: `#/components/schemas/${name.slice(prefix.length)}` };
    return {};
  }
  switch (type.kind) {
    case ts.SyntaxKind.StringKeyword:
      return { type: "string" };
    case ts.SyntaxKind.NumberKeyword:
      return { type: "number" };
    case ts.SyntaxKind.BooleanKeyword:
      return { type: "boolean" };
    default:
      return {};
  }
}

function objectSchema(members: ts.NodeArray<ts.TypeElement>, prefix: string): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  let additionalProperties: JsonSchema | false = false;
  for (const member of members) {
    if (ts.isIndexSignatureDeclaration(member)) additionalProperties = typeSchema(member.type, prefix);
    if (!ts.isPropertySignature(member) || !member.type) continue;
    const name = propertyName(member);
    properties[name] = typeSchema(member.type, prefix);
    if (!member.questionToken) required.push(name);
  }
  return { type: "object", properties, additionalProperties, ...(required.length > 0 ? { required } : {}) };
}

/** A property's name as the JSON spells it: `'$.xgafv'?: string` is `$.xgafv`. */
export function propertyName(member: ts.PropertySignature): string {
  return ts.isStringLiteral(member.name) || ts.isIdentifier(member.name) ? member.name.text : member.name.getText();
}
