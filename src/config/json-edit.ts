import { isDeepStrictEqual } from "node:util";

interface Member {
  key: string;
  valueStart: number;
  valueEnd: number;
  /** Start of the line holding the key, and the key's own start: the member's indentation lies between. */
  lineStart: number;
  keyStart: number;
}

/**
 * Sets top-level string keys of a JSON object text, changing only their
 * values (or appending the missing ones after the last member, indented like
 * it): every other byte of the file, comments of layout included, stays.
 */
export function setTopLevelStrings(text: string, values: Readonly<Record<string, string>>): string {
  const { members, closeAt } = scanTopLevel(text);
  const edits: Array<{ start: number; end: number; insert: string }> = [];
  const missing: string[] = [];
  for (const [key, value] of Object.entries(values)) {
    const member = members.find((m) => m.key === key);
    if (member) edits.push({ start: member.valueStart, end: member.valueEnd, insert: JSON.stringify(value) });
    else missing.push(`${JSON.stringify(key)}: ${JSON.stringify(value)}`);
  }
  if (missing.length > 0) {
    const last = members[members.length - 1];
    const indent = last ? text.slice(last.lineStart, last.keyStart) : "  ";
    const separator = last && /^\s*$/.test(indent) ? `\n${indent}` : " ";
    const at = last ? last.valueEnd : closeAt;
    const body = missing.map((m) => `${separator}${m}`).join(",");
    edits.push({ start: at, end: at, insert: last ? `,${body}` : `${body}\n` });
  }
  let out = text;
  for (const edit of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.insert + out.slice(edit.end);
  const expected = { ...(JSON.parse(strip(text)) as Record<string, unknown>), ...values };
  if (!isDeepStrictEqual(JSON.parse(strip(out)), expected)) throw new Error("editing the config file text went wrong; nothing was written");
  return out;
}

function strip(text: string): string {
  return text.replace(/^\uFEFF/, "");
}

function scanTopLevel(text: string): { members: Member[]; closeAt: number } {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i] as string)) i++;
  };
  const expect = (c: string) => {
    if (text[i] !== c) throw new Error(`not a JSON object: expected ${c} at offset ${i}`);
    i++;
  };
  const skipString = () => {
    expect('"');
    while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    expect('"');
  };
  const skipValue = () => {
    const c = text[i];
    if (c === '"') return skipString();
    if (c === "{" || c === "[") {
      let depth = 0;
      do {
        if (text[i] === '"') {
          skipString();
          continue;
        }
        if (text[i] === "{" || text[i] === "[") depth++;
        if (text[i] === "}" || text[i] === "]") depth--;
        i++;
      } while (depth > 0 && i < text.length);
      return;
    }
    while (i < text.length && !/[,}\]\s]/.test(text[i] as string)) i++;
  };
  ws();
  expect("{");
  const members: Member[] = [];
  for (;;) {
    ws();
    if (text[i] === "}") return { members, closeAt: i };
    const keyStart = i;
    skipString();
    const key = JSON.parse(text.slice(keyStart, i)) as string;
    ws();
    expect(":");
    ws();
    const valueStart = i;
    skipValue();
    members.push({ key, valueStart, valueEnd: i, keyStart, lineStart: text.lastIndexOf("\n", keyStart) + 1 });
    ws();
    if (text[i] === ",") i++;
  }
}
