import { describe, expect, it } from "vitest";
import { parseIdentity, parseSections } from "../../../src/targets/plex/api.js";

describe("parseSections", () => {
  it("reads the XML of a real Plex, declaration, extra attributes and all", () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<MediaContainer size="2" allowSync="0" title1="Plex Library">
<Directory allowSync="1" art="/:/resources/movie-fanart.jpg" filters="1" refreshing="0" key="3" type="movie" title="Movies" agent="tv.plex.agents.movie">
<Location id="3" path="/home/marv/Media/Videos/Movies" />
<Location id="4" path="/home/marv/Media/Videos/More Movies" />
</Directory>
<Directory key="4" type="artist" title="Music"><Location id="5" path="/home/marv/Media/Music"/></Directory>
</MediaContainer>`;
    expect(parseSections(xml, "text/xml;charset=utf-8")).toEqual([
      {
        id: "3",
        title: "Movies",
        type: "movie",
        locations: ["/home/marv/Media/Videos/Movies", "/home/marv/Media/Videos/More Movies"],
      },
      { id: "4", title: "Music", type: "artist", locations: ["/home/marv/Media/Music"] },
    ]);
  });

  it("decodes numeric and named entities and accepts single-quoted attributes", () => {
    const xml = `<MediaContainer size='1'><Directory key='9' type='show' title='Kids &amp; Family'>
<Location id='1' path='/tv/Caf&#233; &#x1F3AC; &lt;new&gt; &quot;x&quot; &apos;y&apos; &unknown;'/></Directory></MediaContainer>`;
    expect(parseSections(xml, "")).toEqual([
      { id: "9", title: "Kids & Family", type: "show", locations: ["/tv/Café 🎬 <new> \"x\" 'y' &unknown;"] },
    ]);
  });

  it("keeps a self-closing Directory without locations as a library with none", () => {
    const xml = `<MediaContainer size="1"><Directory key="2" type="photo" title="Photos"/></MediaContainer>`;
    expect(parseSections(xml, "application/xml")).toEqual([{ id: "2", title: "Photos", type: "photo", locations: [] }]);
  });

  it("accepts a numeric key, a lone Location object and a missing Location in JSON", () => {
    const json = JSON.stringify({
      MediaContainer: {
        size: 3,
        Directory: [
          { key: 1, title: "Movies", type: "movie", Location: { id: 1, path: "/m" } },
          { key: "2", title: "TV", type: "show" },
          { title: "no key, skipped", type: "movie", Location: [{ id: 3, path: "/x" }] },
        ],
      },
    });
    expect(parseSections(json, "application/json")).toEqual([
      { id: "1", title: "Movies", type: "movie", locations: ["/m"] },
      { id: "2", title: "TV", type: "show", locations: [] },
    ]);
  });

  it("ignores locations whose path is not a string", () => {
    const json =
      '{"MediaContainer":{"Directory":[{"key":"1","title":"M","type":"movie","Location":[{"id":1},{"path":7},{"path":"/ok"}]}]}}';
    expect(parseSections(json, "application/json")).toEqual([{ id: "1", title: "M", type: "movie", locations: ["/ok"] }]);
  });

  it.each([
    ["not JSON", "oops", "neither JSON nor XML"],
    ["JSON without MediaContainer", '{"errors":[]}', "no MediaContainer"],
    ["HTML", "<html><body>login</body></html>", "no MediaContainer"],
  ])("refuses %s", (_name, body, message) => {
    expect(() => parseSections(body, "")).toThrow(message);
  });
});

describe("parseIdentity", () => {
  it("reads the JSON and XML forms alike", () => {
    const json = '{"MediaContainer":{"size":0,"claimed":true,"machineIdentifier":"96f2fe7a","version":"1.31.3.6868-28fc46b27"}}';
    const xml = '<MediaContainer size="0" claimed="1" machineIdentifier="96f2fe7a" version="1.31.3.6868-28fc46b27"/>';
    const expected = { claimed: true, machineIdentifier: "96f2fe7a", version: "1.31.3.6868-28fc46b27" };
    expect(parseIdentity(json, "application/json")).toEqual(expected);
    expect(parseIdentity(xml, "text/xml")).toEqual(expected);
  });
});
