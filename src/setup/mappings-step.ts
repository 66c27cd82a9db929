import type { Library } from "../domain.js";
import { ARR_KIND_INFO } from "../arr/index.js";
import type { ArrChoice } from "./arr-step.js";
import { composeMappings } from "./compose-mappings.js";
import type { SetupContext } from "./context.js";
import { deriveMappings, type DeriveTarget, type MappingLink, type UnmatchedRoot } from "./derive-mappings.js";

/** The flat Plex target's name (as TARGETS entries name theirs). */
export const PLEX_TARGET = "plex";

/** A media server as the mapping step sees it: its name, libraries and their item folders. */
export interface MappedServer {
  name: string;
  libraries: Library[];
  /** Item folders per library id. */
  itemFolders: Map<string, string[]>;
}

/** What the mappings become: SERVER_PATH_MAPPINGS entries (Plex form ← app prefixes) and each entry's PATH_MAPPINGS (its form ← Plex form). */
export interface MappingsChoice {
  server: Record<string, string[]>;
  targets: Record<string, Record<string, string[]>>;
}

type MappingsStepContext = Pick<SetupContext, "prompt" | "say" | "interactive">;

/**
 * Step 4: the mappings, derived from folder names both sides hold
 * (deriveMappings), with the evidence shown. Only where nothing matched is
 * the user asked, with the library roots as the choices; without a terminal
 * such a root is reported and left unmapped, never guessed.
 */
export async function chooseMappings(
  ctx: MappingsStepContext,
  apps: readonly ArrChoice[],
  servers: readonly MappedServer[],
): Promise<MappingsChoice> {
  if (apps.length === 0) return { server: {}, targets: {} };
  const result = deriveMappings({
    apps: apps.map((a) => ({
      name: a.label,
      itemsNoun: ARR_KIND_INFO[a.app.kind].itemsNoun,
      rootFolders: a.library.rootFolders,
      itemPaths: a.library.itemPaths,
      sampled: a.library.itemPaths.length < a.library.itemCount,
    })),
    targets: servers.map(toDeriveTarget),
  });
  ctx.say();
  ctx.say("Mappings, from the folders both sides hold:");
  for (const line of result.evidence) ctx.say(`  ${line}`);
  const links = [...result.links];
  for (const entry of result.unmatched) {
    const answered = await askUnmatched(ctx, entry);
    if (answered) links.push(answered);
  }
  const composed = composeMappings(links, PLEX_TARGET);
  for (const { why } of composed.left) ctx.say(`  left out: ${why}`);
  return { server: composed.serverPathMappings, targets: composed.targetPathMappings };
}

async function askUnmatched(ctx: MappingsStepContext, entry: UnmatchedRoot): Promise<MappingLink | undefined> {
  if (!ctx.interactive) {
    ctx.say(
      `  not guessed: ${entry.app}'s ${entry.root} in ${entry.target} (run \`scanarr setup\` in a terminal, or add the mapping by hand)`,
    );
    return undefined;
  }
  const none = "";
  const to = await ctx.prompt.select({
    message: `Where does ${entry.target} see ${entry.app}'s ${entry.root}?`,
    choices: [...entry.suggestions.map((s) => ({ name: s, value: s })), { name: "nowhere / leave it unmapped", value: none }],
    flag: "--yes",
  });
  if (to === none) return undefined;
  return { target: entry.target, app: entry.app, from: entry.root, to: asFolder(to), matched: 0, total: 0, libraries: [] };
}

function toDeriveTarget(server: MappedServer): DeriveTarget {
  return {
    name: server.name,
    libraries: server.libraries.map((l) => ({ title: l.title, roots: l.locations, itemPaths: server.itemFolders.get(l.id) ?? [] })),
  };
}

/** A library root as a mapping prefix: with its trailing separator, as derived prefixes have it. */
function asFolder(root: string): string {
  if (/[\\/]$/.test(root)) return root;
  return root.includes("\\") && !root.includes("/") ? `${root}\\` : `${root}/`;
}
