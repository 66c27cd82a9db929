import { expect } from "vitest";

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}
const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\["\\n])*)"(,|$)/;

/** A strict parser of the Prometheus text format 0.0.4: every line must be a HELP, a TYPE or a sample of a declared family. */
export function parseExposition(text: string): { samples: Sample[]; types: Map<string, string> } {
  expect(text.endsWith("\n")).toBe(true);
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.slice(0, -1).split("\n")) {
    if (line === "") continue;
    const meta = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
    if (meta) {
      expect(meta[2]).toMatch(NAME);
      if (meta[1] === "TYPE") {
        expect(["counter", "gauge", "histogram", "summary", "untyped"]).toContain(meta[3]);
        expect(types.has(meta[2] as string)).toBe(false);
        types.set(meta[2] as string, meta[3] as string);
      }
      continue;
    }
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a valid exposition line: ${line}`);
    const labels: Record<string, string> = {};
    let rest = m[2] ?? "";
    while (rest.length > 0) {
      const l = LABEL.exec(rest);
      if (!l) throw new Error(`bad labels in: ${line}`);
      labels[l[1] as string] = l[2] as string;
      rest = rest.slice(l[0].length);
    }
    const value = m[3] === "+Inf" ? Infinity : Number(m[3]);
    if (Number.isNaN(value)) throw new Error(`bad value in: ${line}`);
    const name = m[1] as string;
    const family = name.replace(/_(bucket|sum|count)$/, "");
    if (!types.has(name) && !types.has(family)) throw new Error(`sample of an undeclared family: ${line}`);
    samples.push({ name, labels, value });
  }
  return { samples, types };
}

export const value = (samples: Sample[], name: string, labels: Record<string, string>) =>
  samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
