// Plex calls for 1,000 imported episodes over 100 season folders in 3 sections, with
// confirmation and analyze on, at the level of the after-scan building blocks:
// scan calls = folders; one section poll per round for every waiting scan; analyze calls = items.
// Run: node --import tsx bench/after-scan.ts
import { rmSync } from "node:fs";
import path from "node:path";
import { analyzeThroughApi, pickAnalyzeItems } from "../src/targets/plex/analyze.js";
import { PlexApiClient } from "../src/targets/plex/api.js";
import { createConfirmer, type ConfirmSettings, type ConfirmWait } from "../src/targets/plex/confirm.js";
import { createPlexLookup } from "../src/targets/plex/library-lookup.js";
import type { PlexItemRef } from "../src/targets/plex/library-items-db.js";
import { startFakePlex, type FakePlex, type FakeSection } from "../test/fakes/plex.js";
import { buildPlexItemsDb, type FakeItemRow } from "../test/scan/helpers/plex-db.js";

const SECTIONS: FakeSection[] = [
  { key: "2", title: "TV", type: "show", locations: ["/data/TV"] },
  { key: "6", title: "Anime", type: "show", locations: ["/data/Anime"] },
  { key: "8", title: "Docs", type: "show", locations: ["/data/Docs"] },
];
const SHOWS = 10;
const SEASONS_PER_SHOW = 10;
const EPISODES_PER_SEASON = 10;
/** Polls a section stays `refreshing` after the scans (a busy Plex). */
const REFRESH_POLLS = 3;
const settings: ConfirmSettings = { pollMs: 10_000, maxWaitMs: 1_800_000, rescanDelayMs: 120_000, confirmFiles: true };

interface Folder {
  section: FakeSection;
  path: string;
  files: string[];
}

/** Shows 0-3 in TV, 4-6 in Anime, 7-9 in Docs: 40 + 30 + 30 season folders. */
function layout(): Folder[] {
  const folders: Folder[] = [];
  for (let show = 0; show < SHOWS; show++) {
    const section = SECTIONS[show < 4 ? 0 : show < 7 ? 1 : 2] as FakeSection;
    for (let season = 1; season <= SEASONS_PER_SHOW; season++) {
      const dir = `${section.locations[0]}/Show ${show}/Season ${season}`;
      const files = Array.from({ length: EPISODES_PER_SEASON }, (_, e) => `${dir}/Show ${show} S${season}E${e + 1}.mkv`);
      folders.push({ section, path: dir, files });
    }
  }
  return folders;
}

interface Figures {
  lookup: string;
  scans: number;
  rounds: number;
  sectionPolls: number;
  folderListings: number;
  confirmed: number;
  analyzeCalls: number;
  analyzeDirectory: number;
  otherCalls: number;
  confirmMs: number;
  analyzeMs: number;
}

async function runCase(lookupKind: "api" | "database"): Promise<Figures> {
  const plex: FakePlex = await startFakePlex({ sections: SECTIONS, refreshDuration: REFRESH_POLLS });
  const folders = layout();
  for (const folder of folders) for (const file of folder.files) plex.addFile(file);
  let databasePath = "";
  if (lookupKind === "database") databasePath = buildDatabase(plex, folders);
  const api = new PlexApiClient({ baseUrl: plex.url, token: plex.token });
  const confirmer = createConfirmer({ api, lookup: createPlexLookup({ databasePath, api }), settings });
  let now = 1_700_000_000_000;

  for (const folder of folders) await api.refresh(folder.section.key, folder.path);
  let waiting: ConfirmWait[] = folders.map((f) => ({
    id: f.path,
    sectionId: f.section.key,
    files: f.files,
    deletedFiles: [],
    scannedAt: now,
    rescanned: false,
  }));

  const items: PlexItemRef[] = [];
  let rounds = 0;
  const confirmStarted = performance.now();
  while (waiting.length > 0 && rounds < 50) {
    now += settings.pollMs;
    rounds += 1;
    const round = await confirmer.poll(waiting, now);
    const next: ConfirmWait[] = [];
    for (const [i, outcome] of round.outcomes.entries()) {
      const wait = waiting[i] as ConfirmWait;
      if (outcome.step.kind === "wait") next.push({ ...wait, sawRefreshing: wait.sawRefreshing || outcome.step.refreshing });
      else if (outcome.step.kind === "confirmed") items.push(...outcome.step.items);
      else throw new Error(`unexpected ${outcome.step.kind} for ${wait.id}`);
    }
    waiting = next;
  }
  const confirmMs = performance.now() - confirmStarted;

  const analyzeStarted = performance.now();
  const keys = pickAnalyzeItems(items, false);
  const report = await analyzeThroughApi(api, keys);
  const analyzeMs = performance.now() - analyzeStarted;
  if (report.failed.length > 0) throw new Error(`${report.failed.length} analyze calls failed`);

  const count = (test: (url: string, method: string) => boolean): number => plex.requests.filter((r) => test(r.url, r.method)).length;
  const figures: Figures = {
    lookup: lookupKind,
    scans: count((url) => url.includes("/refresh?path=")),
    rounds,
    sectionPolls: count((url) => url === "/library/sections"),
    folderListings: count((url) => url.includes("/folder")),
    confirmed: items.length,
    analyzeCalls: count((url, method) => method === "PUT" && url.endsWith("/analyze")),
    analyzeDirectory: pickAnalyzeItems(items, true).length,
    otherCalls: 0,
    confirmMs,
    analyzeMs,
  };
  figures.otherCalls = plex.requests.length - figures.scans - figures.sectionPolls - figures.folderListings - figures.analyzeCalls;
  await plex.close();
  if (databasePath) rmSync(path.dirname(databasePath), { recursive: true, force: true });
  return figures;
}

/** The Plex database as it stands once Plex added every episode, with the fake's own ratingKeys. */
function buildDatabase(plex: FakePlex, folders: Folder[]): string {
  const rows: FakeItemRow[] = folders.flatMap((folder) =>
    folder.files.map((file) => {
      const item = plex.addItem(file);
      return { file, section: Number(folder.section.key), ratingKey: Number(item.ratingKey), parent: Number(item.parentRatingKey) };
    }),
  );
  const sections = SECTIONS.map((s) => ({ id: Number(s.key), name: s.title, type: 2, locations: s.locations }));
  return buildPlexItemsDb(sections, rows);
}

const results = [await runCase("api"), await runCase("database")];
console.log(
  `${SHOWS * SEASONS_PER_SHOW} season folders, ${SHOWS * SEASONS_PER_SHOW * EPISODES_PER_SEASON} episodes, ${SECTIONS.length} sections; sections refreshing for ${REFRESH_POLLS} polls`,
);
console.table(
  results.map((r) => ({
    lookup: r.lookup,
    "scan calls": r.scans,
    "poll rounds": r.rounds,
    "section polls": r.sectionPolls,
    "folder listings": r.folderListings,
    confirmed: r.confirmed,
    "analyze calls": r.analyzeCalls,
    "(season items)": r.analyzeDirectory,
    "other calls": r.otherCalls,
    "confirm ms": Math.round(r.confirmMs),
    "analyze ms": Math.round(r.analyzeMs),
  })),
);
const folderCount = SHOWS * SEASONS_PER_SHOW;
const ok = results.every(
  (r) =>
    r.scans === folderCount &&
    r.sectionPolls === r.rounds &&
    r.confirmed === folderCount * EPISODES_PER_SEASON &&
    r.analyzeCalls === r.confirmed &&
    r.otherCalls === 0,
);
if (!ok) process.exitCode = 1;
