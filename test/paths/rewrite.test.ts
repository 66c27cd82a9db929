import { describe, expect, it } from "vitest";
import { parseTemplate, translatePattern } from "../../src/paths/go-regexp.js";
import { createPathMapper } from "../../src/paths/mapper.js";
import { createRewriter, PatternError, rewriteProblems, type RewriteRule } from "../../src/paths/rewrite.js";

const rewrite = (rules: RewriteRule[], path: string) => createRewriter([{ rules, at: "R" }])?.apply(path)?.path ?? path;

describe("regular-expression rewrites, first match wins (autoscan's rewriter cases)", () => {
  const cases: Array<{ name: string; rules: RewriteRule[]; input: string; expected: string }> = [
    {
      name: "swaps a prefix",
      rules: [{ FROM: "^/mnt/unionfs/Media/", TO: "/data/" }],
      input: "/mnt/unionfs/Media/Movies/Interstellar (2014)",
      expected: "/data/Movies/Interstellar (2014)",
    },
    {
      name: "carries the rest of the path through a capture group",
      rules: [{ FROM: "^/Media/(.*)", TO: "/mnt/unionfs/Media/$1" }],
      input: "/Media/TV/Legion/Season 1",
      expected: "/mnt/unionfs/Media/TV/Legion/Season 1",
    },
    {
      name: "leaves a path the ^ anchor does not start",
      rules: [{ FROM: "^/tv/", TO: "/data/TV/" }],
      input: "/mnt/tv/Show",
      expected: "/mnt/tv/Show",
    },
    {
      name: "keeps unicode names whole",
      rules: [{ FROM: "^/Media/(.*)", TO: "/data/$1" }],
      input: "/Media/Movies/Amélie (2001)/Le Fabuleux Destin d'Amélie Poulain.mkv",
      expected: "/data/Movies/Amélie (2001)/Le Fabuleux Destin d'Amélie Poulain.mkv",
    },
    { name: "returns the path as it is without rules", rules: [], input: "/Media/TV/Show", expected: "/Media/TV/Show" },
    {
      name: "returns the path as it is when no rule matches",
      rules: [{ FROM: "^/movies/", TO: "/data/Movies/" }],
      input: "/tv/Show",
      expected: "/tv/Show",
    },
    {
      name: "uses the second rule when the first misses",
      rules: [
        { FROM: "^/movies/", TO: "/data/Movies/" },
        { FROM: "^/tv/", TO: "/data/TV/" },
      ],
      input: "/tv/Show/Season 1",
      expected: "/data/TV/Show/Season 1",
    },
    {
      name: "tells /movies/ from /movies4k/ (the order-dependent rules of a hotio install)",
      rules: [
        { FROM: "^/movies/", TO: "/mnt/unionfs/Media/Movies/" },
        { FROM: "^/movies4k/", TO: "/mnt/unionfs/Media/Movies 4K/" },
      ],
      input: "/movies4k/Interstellar (2014)",
      expected: "/mnt/unionfs/Media/Movies 4K/Interstellar (2014)",
    },
    {
      name: "applies only the first matching rule, never a second one to its result",
      rules: [
        { FROM: "^/tv/", TO: "/media/tv/" },
        { FROM: "^/media/", TO: "/data/" },
      ],
      input: "/tv/Show",
      expected: "/media/tv/Show",
    },
    {
      name: "replaces every match in the path, as Go's ReplaceAllString",
      rules: [{ FROM: "\\\\", TO: "/" }],
      input: "\\mnt\\media\\Show",
      expected: "/mnt/media/Show",
    },
  ];
  for (const c of cases) it(c.name, () => expect(rewrite(c.rules, c.input)).toBe(c.expected));
});

describe("Go's syntax in a rewrite", () => {
  it("reads (?P<name>…) and ${name}, ${1}, $$ as Go does", () => {
    const rules = [{ FROM: "^/srv/(?P<show>[^/]+)/S(\\d+)/", TO: "/tv/${show}/Season ${2}/$$x/" }];
    expect(rewrite(rules, "/srv/Lost/S01/e.mkv")).toBe("/tv/Lost/Season 01/$x/e.mkv");
  });

  it("sets the leading (?i) flag for the whole pattern", () => {
    expect(rewrite([{ FROM: "(?i)^/TV/", TO: "/data/TV/" }], "/tv/Show")).toBe("/data/TV/Show");
  });

  it("translates \\A, \\z, \\Q…\\E, [[:digit:]], \\pL and escaped punctuation", () => {
    expect(rewrite([{ FROM: "\\A/a\\Q(b)\\E/([[:digit:]]+)\\z", TO: "/n/$1" }], "/a(b)/2001")).toBe("/n/2001");
    expect(rewrite([{ FROM: "^/(\\pL+)\\-x", TO: "/$1" }], "/Amélie-x")).toBe("/Amélie");
  });

  it("does not read JavaScript's $& or $` in a template", () => {
    expect(rewrite([{ FROM: "^/a/", TO: "/$&/$`/" }], "/a/b")).toBe("/$&/$`/b");
  });

  it("parses a template as Go does: $1x names the group 1x, a lone $ stays", () => {
    expect(parseTemplate("a$1x${1}y$ $$")).toEqual(["a", { group: "1x" }, { group: 1 }, "y$ $"]);
  });

  const refused: Array<[string, RewriteRule, RegExp]> = [
    ["a flag in the middle", { FROM: "^/tv/(?i)x", TO: "/" }, /R\[0\]\.FROM: .*flags can be set only at the very start/],
    ["the ungreedy flag", { FROM: "(?U)^/tv/", TO: "/" }, /R\[0\]\.FROM: .*\(\?U\) has no JavaScript equal/],
    ["a broken pattern", { FROM: "^/tv/(", TO: "/" }, /R\[0\]\.FROM: "\^\/tv\/\(" has a \( without its \)/],
    ["nested repetition", { FROM: "^/(a+)+$", TO: "/" }, /R\[0\]\.FROM: .*exponential time/],
    ["a group FROM does not have", { FROM: "^/tv/(.*)", TO: "/data/$2" }, /R\[0\]\.TO: "\/data\/\$2" refers to group 2/],
    ["$1x, Go's name of a group 1x", { FROM: "^/tv/(.*)", TO: "/data/$1x" }, /refers to a group named "1x".*write \$\{1\}x/],
  ];
  for (const [name, rule, message] of refused) {
    it(`refuses ${name} with the rule's dotted path`, () => {
      expect(() => createRewriter([{ rules: [rule], at: "R" }])).toThrow(PatternError);
      expect(rewriteProblems([{ rules: [rule], at: "R" }])).toEqual([expect.stringMatching(message)]);
    });
  }

  it("lets a bounded repetition inside a repeated group pass", () => {
    expect(translatePattern("^/(\\d{4})+/").source).toBe("^/(\\d{4})+/");
  });
});

describe("rewrites before the prefix mappings", () => {
  const rewriter = createRewriter([{ rules: [{ FROM: "^/srv/(\\w+)/", TO: "/tv/$1/" }], at: "SERVER_PATH_REWRITES" }]);
  const mapper = createPathMapper({ "/data/TV/": ["/tv/"] }, "SERVER_PATH_MAPPINGS", rewriter);

  it("maps the rewrite's result and says which rule rewrote it", () => {
    expect(mapper.explain("/srv/Lost/Season 1")).toEqual({
      serverPath: "/data/TV/Lost/Season 1",
      prefix: "/tv/",
      key: "/data/TV/",
      rewrite: { rule: "SERVER_PATH_REWRITES[0]", from: "^/srv/(\\w+)/", to: "/tv/$1/", result: "/tv/Lost/Season 1" },
    });
  });

  it("maps a path no rewrite matches as before", () => {
    expect(mapper.explain("/tv/Lost")).toEqual({ serverPath: "/data/TV/Lost", prefix: "/tv/", key: "/data/TV/" });
  });

  it("refuses a rewrite's result that is no path, naming the rule", () => {
    const bad = createPathMapper({}, "SERVER_PATH_MAPPINGS", createRewriter([{ rules: [{ FROM: "^/x/", TO: "../" }], at: "R" }]));
    expect(() => bad.toServerPath("/x/y")).toThrow(/rewritten by R\[0\] to "\.\.\/y"/);
  });
});
