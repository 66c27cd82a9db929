import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createPathMapper, isWithin } from "../../src/paths/index.js";

const segment = fc.stringMatching(/^[A-Za-z0-9 ()._é-]{1,12}$/).filter((s) => s !== "." && s !== ".." && s.trim() === s && s.length > 0);
const posixPath = fc.array(segment, { minLength: 1, maxLength: 6 }).map((parts) => `/${parts.join("/")}`);

/** Keys under /srv, alternatives under /mnt: alternatives never lie inside a key. */
const mappings = fc
  .array(
    fc.tuple(
      fc.array(segment, { minLength: 1, maxLength: 3 }),
      fc.array(fc.array(segment, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((entries) => {
    const out: Record<string, string[]> = {};
    for (const [key, alts] of entries) out[`/srv/${key.join("/")}/`] = alts.map((a) => `/mnt/${a.join("/")}/`);
    return out;
  });

describe("path mapper properties", () => {
  it("is idempotent on its own output", () => {
    fc.assert(
      fc.property(mappings, posixPath, (m, p) => {
        const mapper = createPathMapper(m);
        const once = mapper.toServerPath(p);
        expect(mapper.toServerPath(once)).toBe(once);
      }),
    );
  });

  it("leaves paths under a key unchanged", () => {
    fc.assert(
      fc.property(mappings, fc.array(segment, { maxLength: 3 }), (m, rest) => {
        const mapper = createPathMapper(m);
        for (const key of Object.keys(m)) {
          const p = key + rest.join("/");
          expect(mapper.toServerPath(p)).toBe(p);
        }
      }),
    );
  });

  it("never rewrites a path whose component only starts with an alternative's last component", () => {
    fc.assert(
      fc.property(mappings, segment, (m, suffix) => {
        const mapper = createPathMapper(m);
        const alts = Object.values(m).flat();
        for (const alt of alts) {
          const sibling = `${alt.replace(/\/$/, "")} ${suffix}/x.mkv`;
          const covered = alts.some((a) => isWithin(a, sibling));
          if (!covered) expect(mapper.toServerPath(sibling)).toBe(sibling);
        }
      }),
    );
  });

  it("chooses the longest matching alternative", () => {
    fc.assert(
      fc.property(fc.array(segment, { minLength: 2, maxLength: 4 }), segment, (parts, file) => {
        const short = `/mnt/${parts[0]}/`;
        const long = `/mnt/${parts.join("/")}/`;
        const mapper = createPathMapper({ "/srv/short/": [short], "/srv/long/": [long] });
        expect(mapper.toServerPath(`${long}${file}`)).toBe(`/srv/long/${file}`);
      }),
    );
  });
});
