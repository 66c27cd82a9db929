/*
 * rclone.conf as a list of lines, parsed the way rclone's INI library
 * (goconfig) parses it, so that edits touch only the lines they change and
 * everything else (other remotes, comments, unknown keys, CRLF) survives
 * byte for byte.
 */

export interface ConfLine {
  /** The line's text without its line break. */
  text: string;
  /** The line break that followed it: "\n", "\r\n", or "" for a last line without one. */
  end: string;
  kind: "blank" | "comment" | "section" | "entry";
  /** Section the line belongs to (for a header: the section it opens). */
  section: string;
  key?: string;
  value?: string;
}

export interface ConfDocument {
  bom: string;
  lines: ConfLine[];
  /** Line break used for new lines: the file's own, "\n" for a new file. */
  eol: string;
}

/** Name rclone gives to keys written before any section header. */
export const DEFAULT_SECTION = "DEFAULT";

export class ConfParseError extends Error {
  override name = "ConfParseError";
}

export function parseConf(text: string): ConfDocument {
  const bom = text.startsWith("\uFEFF") ? "\uFEFF" : "";
  const pieces = text.slice(bom.length).split("\n");
  const lines: ConfLine[] = [];
  let section = DEFAULT_SECTION;
  pieces.forEach((piece, index) => {
    const last = index === pieces.length - 1;
    if (last && piece === "") return;
    const crlf = piece.endsWith("\r");
    const line = classifyLine(crlf ? piece.slice(0, -1) : piece, section);
    line.end = last ? "" : crlf ? "\r\n" : "\n";
    if (line.kind === "section") section = line.section;
    lines.push(line);
  });
  const eol = lines[0]?.end === "\r\n" ? "\r\n" : "\n";
  return { bom, lines, eol };
}

function classifyLine(text: string, section: string): ConfLine {
  const line = text.trim();
  if (line === "") return { text, end: "", kind: "blank", section };
  if (line.startsWith("#") || line.startsWith(";")) return { text, end: "", kind: "comment", section };
  if (line.startsWith("[") && line.endsWith("]")) {
    const name = line.slice(1, -1).trim();
    if (name === "") throw new ConfParseError("empty section name not allowed");
    return { text, end: "", kind: "section", section: name };
  }
  const { key, value } = splitEntry(line);
  return { text, end: "", kind: "entry", section, key, value };
}

function quoteAt(text: string): string {
  if (text.startsWith('"""') && text.length >= 6) return '"""';
  if (text.startsWith('"')) return '"';
  if (text.startsWith("`")) return "`";
  return "";
}

function splitEntry(line: string): { key: string; value: string } {
  const fail = () => new ConfParseError(`could not parse line: ${line}`);
  let key: string;
  let split: number;
  const keyQuote = quoteAt(line);
  if (keyQuote) {
    const close = line.indexOf(keyQuote, keyQuote.length);
    if (close === -1) throw fail();
    const rest = line.slice(close).search(/[=:]/);
    if (rest <= 0) throw fail();
    key = line.slice(keyQuote.length, close);
    split = close + rest;
  } else {
    split = line.search(/[=:]/);
    if (split <= 0) throw fail();
    key = line.slice(0, split).trim();
  }
  const right = line.slice(split + 1).trim();
  const valueQuote = right.length >= 2 && right.startsWith("`") ? "`" : right.length >= 6 && right.startsWith('"""') ? '"""' : "";
  if (!valueQuote) return { key, value: right };
  const close = right.lastIndexOf(valueQuote);
  if (close < valueQuote.length) throw fail();
  return { key, value: right.slice(valueQuote.length, close) };
}

export function serializeConf(doc: ConfDocument): string {
  return doc.bom + doc.lines.map((line) => line.text + line.end).join("");
}

/** Remote names in order of first appearance (DEFAULT only when keys precede every header). */
export function listSections(doc: ConfDocument): string[] {
  const names: string[] = [];
  for (const line of doc.lines) {
    const name = line.kind === "section" || line.kind === "entry" ? line.section : undefined;
    if (name !== undefined && !names.includes(name)) names.push(name);
  }
  return names;
}

/** The section's keys and values; repeated headers merge and a later key wins, as in rclone. */
export function readSection(doc: ConfDocument, name: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const line of doc.lines) {
    if (line.kind === "entry" && line.section === name) values.set(line.key!, line.value!);
  }
  return values;
}

export function hasSection(doc: ConfDocument, name: string): boolean {
  return doc.lines.some((line) => line.kind === "section" && line.section === name);
}

/** `[start, end)` ranges of every block of `name`, headers included, leading comments excluded. */
export function findBlocks(doc: ConfDocument, name: string): Array<[number, number]> {
  const blocks: Array<[number, number]> = [];
  doc.lines.forEach((line, index) => {
    if (line.kind !== "section" || line.section !== name) return;
    let end = index + 1;
    while (end < doc.lines.length && doc.lines[end]!.kind !== "section") end++;
    blocks.push([index, end]);
  });
  return blocks;
}

export function newLine(doc: ConfDocument, text: string, fields: Omit<ConfLine, "text" | "end">): ConfLine {
  return { text, end: doc.eol, ...fields };
}

/** Makes sure the current last line ends with a line break before lines are added after it. */
export function terminateLastLine(doc: ConfDocument): void {
  const last = doc.lines[doc.lines.length - 1];
  if (last && last.end === "") last.end = doc.eol;
}
