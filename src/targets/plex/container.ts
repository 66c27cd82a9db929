/** A JSON object of a Plex answer, or an XML element read into the same shape. */
export type Fields = Record<string, unknown>;

/**
 * The `MediaContainer` of a Plex answer, in JSON or in XML (Plex's default
 * when a proxy drops our Accept header). XML is read into the JSON shape:
 * attributes become fields (strings), child elements become arrays under
 * their tag name (`<Directory><Location/></Directory>` gives
 * `Directory[].Location[]`). Throws a plain Error saying what is wrong.
 */
export function readMediaContainer(text: string, contentType: string): Fields {
  if (isXml(text, contentType)) return readXmlContainer(text);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error("the body is neither JSON nor XML");
  }
  // Plex answers 200 without a MediaContainer for a section that was just removed.
  if (!isFields(data) || !isFields(data.MediaContainer)) throw new Error("no MediaContainer in the answer");
  return data.MediaContainer;
}

function isXml(text: string, contentType: string): boolean {
  if (/json/i.test(contentType)) return false;
  return /xml/i.test(contentType) || text.trimStart().startsWith("<");
}

const TAG = /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/g;
const ATTRIBUTE = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** Enough XML for Plex's attribute-only answers; no DTDs, no CDATA, text content ignored. */
function readXmlContainer(text: string): Fields {
  let root: Fields | undefined;
  const stack: Array<{ name: string; fields: Fields }> = [];
  for (const [, closing, name = "", attributes = "", selfClosing] of text.matchAll(TAG)) {
    if (closing === "/") {
      const at = stack.map((open) => open.name).lastIndexOf(name);
      if (at >= 0) stack.length = at;
      if (root && stack.length === 0) break;
      continue;
    }
    const fields = readAttributes(attributes);
    const parent = stack.at(-1);
    if (parent) appendChild(parent.fields, name, fields);
    else if (name === "MediaContainer") root = fields;
    else continue; // an element outside the container (an HTML page) is not part of the answer
    if (selfClosing !== "/") stack.push({ name, fields });
    else if (stack.length === 0) break;
  }
  if (!root) throw new Error("no MediaContainer in the answer");
  return root;
}

function appendChild(parent: Fields, name: string, child: Fields): void {
  const list = parent[name];
  if (Array.isArray(list)) list.push(child);
  else parent[name] = [child];
}

function readAttributes(source: string): Fields {
  const fields: Fields = {};
  for (const [, name = "", double, single] of source.matchAll(ATTRIBUTE)) {
    fields[name] = decodeEntities(double ?? single ?? "");
  }
  return fields;
}

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] !== "#") return NAMED[body] ?? whole;
    const code = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

export function isFields(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Plex sends arrays; XML-to-JSON proxies sometimes send a lone object. */
export function asArray(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  return value === undefined || value === null ? [] : [value];
}

/** The objects of a field that should hold a list of objects. */
export function childList(fields: Fields, name: string): Fields[] {
  return asArray(fields[name]).filter(isFields);
}

/** A Plex flag, sent as `true`/`false` in JSON, `1`/`0` in XML and by some versions in JSON too. */
export function readFlag(value: unknown): boolean {
  return value === true || value === 1 || value === "1" || value === "true";
}

/** An id Plex sends as a string (`"12"`) or, in some answers, as a number. */
export function readId(value: unknown): string | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return typeof value === "string" && value !== "" ? value : undefined;
}
