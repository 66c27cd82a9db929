/**
 * The media side of the day replay: the fake Plex, Jellyfin and Emby, each
 * seeing the library in its own path form and taking `scanMs` (on the
 * replay's clock) to scan, and a real folder on this machine's disk where
 * scanarr's file checks see the files.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { withTargetDefaults } from "../../src/config/defaults.js";
import type { TargetConfig } from "../../src/config/types.js";
import { startFakeEmby, type FakeEmby } from "../../test/fakes/emby.js";
import { startFakeJellyfin, type FakeJellyfin } from "../../test/fakes/jellyfin.js";
import { startFakePlex, type FakePlex } from "../../test/fakes/plex.js";
import { onCleanup } from "./cleanup.js";

/** A path form: the prefix each of the *arr's roots (/tv/, /movies/) becomes. */
type Form = { tv: string; movies: string };

const FORMS = {
  plex: { tv: "/data/TV/", movies: "/data/Movies/" },
  jellyfin: { tv: "/media/TV/", movies: "/media/Movies/" },
  emby: { tv: "/mnt/tv/", movies: "/mnt/movies/" },
} satisfies Record<string, Form>;

export type ServerName = keyof typeof FORMS;
export const SERVER_NAMES = Object.keys(FORMS) as ServerName[];

/** `file` (the *arr's form: /tv/…, /movies/…) in `form`. */
function inForm(form: Form, file: string): string {
  if (file.startsWith("/tv/")) return form.tv + file.slice(4);
  if (file.startsWith("/movies/")) return form.movies + file.slice(8);
  throw new Error(`replay: ${file} is in no library`);
}

/** The media-server form scanarr's queue keeps (Plex's). */
export const plexForm = (file: string) => inForm(FORMS.plex, file);

/** The *arr's form of a folder in `server`'s form (the scans each server received; a library's own folder too). */
export function arrFormOf(server: ServerName, folder: string): string {
  const form: Form = FORMS[server];
  if (`${folder}/`.startsWith(form.tv)) return `/tv/${folder.slice(form.tv.length)}`.replace(/\/$/, "");
  if (`${folder}/`.startsWith(form.movies)) return `/movies/${folder.slice(form.movies.length)}`.replace(/\/$/, "");
  return folder;
}

export interface ReplayServers {
  plex: FakePlex;
  jellyfin: FakeJellyfin;
  emby: FakeEmby;
  /** TARGETS entries for Jellyfin and Emby (Plex is the flat PLEX_* keys). */
  targets: TargetConfig[];
  /** SERVER_FILE_EXIST_PATH_MAPPINGS: where scanarr sees the files on this machine. */
  localMappings: Record<string, string[]>;
  /** Puts `files` (the *arr's form) on every disk, known to every server already. */
  hold(files: string[]): void;
  /** Files land on (and go from) every disk; the servers find out when they scan. */
  change(adds: string[], removes: string[]): void;
  /** Each scan call a server received: the folders it named or refreshed, in the *arr's form (a library's refresh: its root). */
  scansOf(server: ServerName): string[][];
}

export async function startReplayServers(mediaDir: string, scanMs: number, now: () => number, monitorDelayMs = 0): Promise<ReplayServers> {
  const plex = await startFakePlex({
    sections: [
      { key: "1", title: "Movies", type: "movie", locations: ["/data/Movies"] },
      { key: "2", title: "TV Shows", type: "show", locations: ["/data/TV"] },
    ],
    refreshDuration: { ms: scanMs, now },
  });
  onCleanup(() => plex.close());
  const libraries = (form: Form, ids: [string, string]) => [
    { name: "Shows", id: ids[0], collectionType: "tvshows", locations: [form.tv.slice(0, -1)] },
    { name: "Movies", id: ids[1], collectionType: "movies", locations: [form.movies.slice(0, -1)] },
  ];
  const scanTiming = { ms: scanMs, now, monitorDelayMs };
  const jellyfin = await startFakeJellyfin({ libraries: libraries(FORMS.jellyfin, ["j1", "j2"]), scanTiming });
  onCleanup(() => jellyfin.close());
  const emby = await startFakeEmby({ libraries: libraries(FORMS.emby, ["e1", "e2"]), scanTiming });
  onCleanup(() => emby.close());

  const mappingsTo = (form: Form) => ({ [form.tv]: [FORMS.plex.tv], [form.movies]: [FORMS.plex.movies] });
  const entry = (TYPE: "jellyfin" | "emby", server: FakeJellyfin | FakeEmby) =>
    withTargetDefaults({ TYPE, NAME: TYPE, URL: server.url, TOKEN: server.token, PATH_MAPPINGS: mappingsTo(FORMS[TYPE]) });
  const local: Form = { tv: `${path.join(mediaDir, "TV")}/`, movies: `${path.join(mediaDir, "Movies")}/` };

  const put = (file: string) => {
    const onDisk = inForm(local, file);
    mkdirSync(path.dirname(onDisk), { recursive: true });
    writeFileSync(onDisk, "");
    plex.addFile(plexForm(file));
    jellyfin.scans.disk.add(inForm(FORMS.jellyfin, file));
    emby.scans.disk.add(inForm(FORMS.emby, file));
  };
  const remove = (file: string) => {
    rmSync(inForm(local, file), { force: true });
    plex.removeFile(plexForm(file));
    jellyfin.scans.disk.delete(inForm(FORMS.jellyfin, file));
    emby.scans.disk.delete(inForm(FORMS.emby, file));
  };
  // A Media/Updated entry names a file (scanarr narrows to the named files) or a folder.
  const folderOf = (entry: string) => (/\.[a-z0-9]{2,4}$/i.test(entry) ? path.posix.dirname(entry) : entry);
  const callsOf = (name: "jellyfin" | "emby", server: FakeJellyfin | FakeEmby) => [
    ...server.mediaUpdates.map((call) => [...new Set(call.map((u) => arrFormOf(name, folderOf(u.path))))]),
    ...server.items.refreshes.map((r) => r.path.split(",").map((p) => arrFormOf(name, p))),
  ];

  return {
    plex,
    jellyfin,
    emby,
    targets: [entry("jellyfin", jellyfin), entry("emby", emby)],
    localMappings: mappingsTo(local),
    hold(files) {
      for (const file of files) {
        put(file);
        plex.addItem(plexForm(file));
        jellyfin.addItem(inForm(FORMS.jellyfin, file));
        emby.addItem(inForm(FORMS.emby, file));
      }
    },
    change(adds, removes) {
      for (const file of removes) remove(file);
      for (const file of adds) put(file);
    },
    scansOf(server) {
      if (server === "plex") return plex.refreshes.map((r) => [arrFormOf("plex", r.path ?? "")]);
      return callsOf(server, server === "jellyfin" ? jellyfin : emby);
    },
  };
}
