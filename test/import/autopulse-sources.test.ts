import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseConfigText } from "../config/parse.js";
import { readAutopulse } from "../../src/import/autopulse.js";
import { buildConfig } from "../../src/import/build.js";
import { createSourceTable } from "../../src/ingest/sources.js";

const AUTOPULSE = `
triggers:
  sonarr:
    type: sonarr
    rewrite: {from: '^/downloads/tv/(?P<show>[^/]+)/', to: '/media/tv/\${show}/'}
    filter: {exclude: ['/Extras/'], include: ['^/media/tv/']}
    timer: {wait: 30}
    event_timers: {download: {wait: 10}}
    excludes: [jf]
  radarr:
    type: radarr
    rewrite:
      - {from: '^/dl/(\\w+)/', to: '/media/$1/'}
      - {from: '^/media/movies/', to: '/media/films/'}
  notify:
    type: notify
    paths: [/media/done]
    filter: {exclude: ['\\.part$']}
    timer: {wait: 5}
targets:
  plex: {type: plex, url: 'http://plex:32400', token: t}
  jf:
    type: jellyfin
    url: 'http://jf:8096'
    token: t
    rewrite: {from: '^/media/(tv|movies)/', to: '/jf/$1/'}
`;

describe("scanarr import autopulse: filters, timers and regular-expression rewrites", async () => {
  const built = await buildConfig(readAutopulse(parse(AUTOPULSE)), { pass: "0123456789abcdef", hashPassword: async () => "" });
  const { written: config } = parseConfigText(JSON.stringify(built.config));

  it("gives each trigger its rewrites, filter and timer as a SOURCES entry", () => {
    expect(config.SOURCES).toEqual({
      sonarr: {
        REWRITES: [{ FROM: "^/downloads/tv/(?P<show>[^/]+)/", TO: "/media/tv/${show}/" }],
        DELAY: 30,
        INCLUDE: ["^/media/tv/"],
        EXCLUDE: ["/Extras/"],
      },
      watch: { DELAY: 5, EXCLUDE: ["\\.part$"] },
    });
    // With no Plex rewrite the tool's own path is Plex's, so Jellyfin's regular expression is kept as written.
    expect(config.TARGETS).toMatchObject([{ NAME: "jf", REWRITES: [{ FROM: "^/media/(tv|movies)/", TO: "/jf/$1/" }] }]);
  });

  it("filters the rewritten path, as autopulse did", () => {
    const sonarr = createSourceTable(config).settingsFor("sonarr");
    const rewritten = sonarr?.mapper.explain("/downloads/tv/Lost/Extras/x.mkv").rewrite?.result ?? "";
    expect(rewritten).toBe("/media/tv/Lost/Extras/x.mkv");
    expect(sonarr?.filter?.(rewritten)).toEqual({ rule: "SOURCES.sonarr.EXCLUDE[0]", pattern: "/Extras/" });
    expect(sonarr?.filter?.("/media/tv/Lost/Season 1/e.mkv")).toBeUndefined();
  });

  it("says precisely what it could not convert, and why", () => {
    const lines = built.notConverted;
    expect(lines).toContain(
      "triggers.sonarr.excludes: scanarr delivers every scan to every target (no per-source target list); not converted",
    );
    expect(lines).toContain("triggers.sonarr.event_timers: scanarr's DELAY is per source, not per event type; not converted");
    expect(lines).toContainEqual(
      expect.stringMatching(/^triggers\.radarr\.rewrite: autopulse applies every rule in turn .* not converted/),
    );
    expect(config.SOURCES.radarr).toBeUndefined();
  });
});
