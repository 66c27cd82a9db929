import { findBlocks, newLine, readSection, terminateLastLine, type ConfDocument } from "./conf-document.js";

/*
 * Edits of a parsed rclone.conf. Each one rewrites only the lines it must and
 * formats new ones as rclone writes them: `[name]`, `key = value`, a blank
 * line after each section.
 */

/** Sets `key` in `section`: rewrites the existing line, or adds one after the section's last key. */
export function setConfValue(doc: ConfDocument, section: string, key: string, value: string): void {
  const text = `${key} = ${value}`;
  const existing = doc.lines
    .map((line, index) => ({ line, index }))
    .filter(({ line }) => line.kind === "entry" && line.section === section && line.key === key);
  if (existing.length > 0) {
    for (const { line } of existing) Object.assign(line, { text, value });
    return;
  }
  const blocks = findBlocks(doc, section);
  const block = blocks[blocks.length - 1];
  if (!block) {
    appendSection(doc, section, [[key, value]]);
    return;
  }
  let at = block[0] + 1;
  for (let i = block[0] + 1; i < block[1]; i++) if (doc.lines[i]!.kind === "entry") at = i + 1;
  if (at === doc.lines.length) terminateLastLine(doc);
  doc.lines.splice(at, 0, newLine(doc, text, { kind: "entry", section, key, value }));
}

/** Adds a new section at the end of the file, separated by one blank line. */
export function appendSection(doc: ConfDocument, name: string, entries: Array<[string, string]>): void {
  terminateLastLine(doc);
  const last = doc.lines[doc.lines.length - 1];
  if (last && last.kind !== "blank") doc.lines.push(newLine(doc, "", { kind: "blank", section: last.section }));
  doc.lines.push(newLine(doc, `[${name}]`, { kind: "section", section: name }));
  for (const [key, value] of entries) {
    doc.lines.push(newLine(doc, `${key} = ${value}`, { kind: "entry", section: name, key, value }));
  }
  doc.lines.push(newLine(doc, "", { kind: "blank", section: name }));
}

/** Removes every block of the section with the comments directly above its header. */
export function removeSection(doc: ConfDocument, name: string): void {
  for (const [header, blockEnd] of findBlocks(doc, name).reverse()) {
    let start = header;
    while (start > 0 && doc.lines[start - 1]!.kind === "comment") start--;
    let end = blockEnd;
    // Comments right above the next header describe the next section.
    if (end < doc.lines.length) while (end > header + 1 && doc.lines[end - 1]!.kind === "comment") end--;
    doc.lines.splice(start, end - start);
  }
}

export function renameSection(doc: ConfDocument, from: string, to: string): void {
  for (const line of doc.lines) {
    if (line.section !== from) continue;
    line.section = to;
    if (line.kind === "section") line.text = `[${to}]`;
  }
}

export function copySection(doc: ConfDocument, from: string, to: string): void {
  appendSection(doc, to, [...readSection(doc, from)]);
}
