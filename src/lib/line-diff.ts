/**
 * A unified diff of two texts by lines (longest common subsequence), with
 * `context` unchanged lines around each change: what `scanarr setup` shows
 * before it writes. Empty when the texts are equal.
 */
export function unifiedDiff(before: string, after: string, names: { before: string; after: string }, context = 3): string {
  if (before === after) return "";
  const a = splitLines(before);
  const b = splitLines(after);
  const ops = diffOps(a, b);
  const hunks: string[] = [];
  let i = 0;
  while (i < ops.length) {
    if (ops[i]?.kind === " ") {
      i++;
      continue;
    }
    let start = Math.max(0, i - context);
    let end = i;
    // A hunk runs on while the next change is within 2 × context unchanged lines.
    for (let j = i; j < ops.length; j++) {
      if (ops[j]?.kind !== " ") end = j;
      else if (j - end > 2 * context) break;
    }
    const stop = Math.min(ops.length, end + context + 1);
    const slice = ops.slice(start, stop);
    const first = slice[0] as Op;
    const oldCount = slice.filter((o) => o.kind !== "+").length;
    const newCount = slice.filter((o) => o.kind !== "-").length;
    hunks.push(`@@ -${first.oldLine + (oldCount === 0 ? 0 : 1)},${oldCount} +${first.newLine + (newCount === 0 ? 0 : 1)},${newCount} @@`);
    for (const op of slice) hunks.push(`${op.kind}${op.text}`);
    start = stop;
    i = stop;
  }
  return [`--- ${names.before}`, `+++ ${names.after}`, ...hunks].join("\n");
}

interface Op {
  kind: " " | "-" | "+";
  text: string;
  /** Lines of each side before this one. */
  oldLine: number;
  newLine: number;
}

function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function diffOps(a: readonly string[], b: readonly string[]): Op[] {
  // Common lines at both ends cost nothing; the table covers only the middle.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const table = Array.from({ length: midA.length + 1 }, () => new Uint32Array(midB.length + 1));
  for (let x = midA.length - 1; x >= 0; x--) {
    for (let y = midB.length - 1; y >= 0; y--) {
      const row = table[x] as Uint32Array;
      row[y] =
        midA[x] === midB[y]
          ? ((table[x + 1] as Uint32Array)[y + 1] as number) + 1
          : Math.max((table[x + 1] as Uint32Array)[y] as number, row[y + 1] as number);
    }
  }
  const ops: Op[] = [];
  let oldLine = 0;
  let newLine = 0;
  const push = (kind: Op["kind"], text: string): void => {
    ops.push({ kind, text, oldLine, newLine });
    if (kind !== "+") oldLine++;
    if (kind !== "-") newLine++;
  };
  for (let k = 0; k < head; k++) push(" ", a[k] as string);
  let x = 0;
  let y = 0;
  while (x < midA.length || y < midB.length) {
    if (x < midA.length && y < midB.length && midA[x] === midB[y]) {
      push(" ", midA[x++] as string);
      y++;
    } else if (
      x < midA.length &&
      (y >= midB.length || ((table[x + 1] as Uint32Array)[y] as number) >= ((table[x] as Uint32Array)[y + 1] as number))
    ) {
      push("-", midA[x++] as string);
    } else {
      push("+", midB[y++] as string);
    }
  }
  for (let k = a.length - tail; k < a.length; k++) push(" ", a[k] as string);
  return ops;
}
