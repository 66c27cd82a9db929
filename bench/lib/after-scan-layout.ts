import type { FakePlex, FakeSection } from "../../test/fakes/plex.js";
import { buildPlexItemsDb, type FakeItemRow } from "../../test/scan/helpers/plex-db.js";

export const SECTIONS: FakeSection[] = [
  { key: "2", title: "TV", type: "show", locations: ["/data/TV"] },
  { key: "6", title: "Anime", type: "show", locations: ["/data/Anime"] },
  { key: "8", title: "Docs", type: "show", locations: ["/data/Docs"] },
];
export const SHOWS = 10;
export const SEASONS_PER_SHOW = 10;
export const EPISODES_PER_SEASON = 10;

export interface Folder {
  section: FakeSection;
  path: string;
  files: string[];
}

/** Shows 0-3 in TV, 4-6 in Anime, 7-9 in Docs: 40 + 30 + 30 season folders of 10 episodes. */
export function layout(): Folder[] {
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

/** The Plex database as it stands once Plex added every episode, with the fake's own ratingKeys. */
export function buildDatabase(plex: FakePlex, folders: Folder[]): string {
  const rows: FakeItemRow[] = folders.flatMap((folder) =>
    folder.files.map((file) => {
      const item = plex.addItem(file);
      return { file, section: Number(folder.section.key), ratingKey: Number(item.ratingKey), parent: Number(item.parentRatingKey) };
    }),
  );
  const sections = SECTIONS.map((s) => ({ id: Number(s.key), name: s.title, type: 2, locations: s.locations }));
  return buildPlexItemsDb(sections, rows);
}
