import type { Logger } from "../lib/logger.js";
import { tryParsePath } from "../paths/index.js";
import { createLocalPathMapper } from "../paths/local.js";
import type { FileChecker } from "./file-check.js";
import type { PathProbe, ProbeState } from "./path-probe.js";

/**
 * Rounds of the automatic file checks (SERVER_MAX_FILE_CHECKS unset): with
 * SERVER_FILE_CHECK_DELAY's 5 s, ten minutes, as plex_autoscan's 10 × 60 s.
 */
export const AUTO_FILE_CHECKS = 120;

/** How long a "not on this machine" answer stands before its folder is looked at again (a mount that appears later). */
export const ABSENT_VERDICT_MS = 5 * 60_000;

/** One library folder's answer: whether scanarr sees it, where, and why not. */
export interface RootVerdict {
  /** The library folder, media-server path form. */
  root: string;
  local: boolean;
  /** Where scanarr looked (SERVER_FILE_EXIST_PATH_MAPPINGS applied), or why it could not. */
  seenAs: string;
}

export interface FileCheckScopeDeps {
  probe: Pick<PathProbe, "check">;
  existMappings: Record<string, string[]>;
  /** The library folders holding a media-server path (LibraryCatalog.libraryRootsOf); undefined while not known. */
  rootsOf: (path: string) => string[] | undefined;
  logger: Pick<Logger, "info">;
  /** Milliseconds now (the service's clock); a "not here" answer is looked at again ABSENT_VERDICT_MS later. */
  now: () => number;
}

/** Which files the automatic file checks look for: those whose library folder exists on this machine. */
export interface FileCheckScope {
  /** Whether `file` is checked: one of its library folders is local. Libraries not known yet: not checked. */
  covers(file: string): Promise<boolean>;
}

const PRESENT: ReadonlySet<ProbeState> = new Set(["folder", "empty-folder"]);

/**
 * The library folder decides, not the file: a new file is missing until it
 * arrives, while a library folder missing here means scanarr cannot see that
 * library at all (another host, a container without the media volume), where
 * checks would hold every scan until they ran out. An empty folder counts as
 * present: a dropped mount's empty mount point then holds the scans, which
 * is the point.
 */
export function createFileCheckScope(deps: FileCheckScopeDeps): FileCheckScope {
  const toLocal = createLocalPathMapper(deps.existMappings);
  const verdicts = new Map<string, { verdict: Promise<RootVerdict>; until?: number }>();
  const look = async (root: string): Promise<RootVerdict | undefined> => {
    const local = toLocal(root);
    if ("error" in local) return { root, local: false, seenAs: local.error };
    const { state, error } = await deps.probe.check(local.path);
    // A stalled mount or an I/O error says nothing yet: asked again next time.
    if (state === "timeout" || error !== undefined) return undefined;
    return { root, local: PRESENT.has(state), seenAs: local.path };
  };
  // A folder found here stays so for the process (an empty mount point then holds the scans); one
  // not found is looked at again ABSENT_VERDICT_MS later, so a mount that appears needs no restart;
  // one that does not answer (a stalled mount) counts as local and is looked at again next time.
  // Each answer is logged when it is new or changed.
  const judge = async (root: string): Promise<RootVerdict> => {
    const known = verdicts.get(root);
    if (known !== undefined && (known.until === undefined || deps.now() < known.until)) return known.verdict;
    const before = known?.verdict;
    const verdict = look(root).then(async (v) => {
      if (v === undefined) {
        verdicts.delete(root);
        return { root, local: true, seenAs: "not answered yet" };
      }
      if (!v.local) verdicts.set(root, { verdict, until: deps.now() + ABSENT_VERDICT_MS });
      const previous = before === undefined ? undefined : await before;
      if (previous?.local !== v.local) deps.logger.info({ library: root, seenAs: v.seenAs }, describeVerdict(v));
      return v;
    });
    verdicts.set(root, { verdict });
    return verdict;
  };
  return {
    async covers(file) {
      // A target without libraries of its own (a command, autoscan) takes every folder from the
      // file system's root: that says nothing about where the media lives.
      const roots = (deps.rootsOf(file) ?? []).filter((root) => !isFileSystemRoot(root));
      const answers = await Promise.all(roots.map(judge));
      return answers.some((v) => v.local);
    },
  };
}

function isFileSystemRoot(root: string): boolean {
  return tryParsePath(root)?.parts.length === 0;
}

export function describeVerdict(v: RootVerdict): string {
  return v.local
    ? `file checks on for ${v.root}: its folder is on this machine (${v.seenAs}); scans wait until their files show there`
    : `file checks off for ${v.root}: its folder is not on this machine (${v.seenAs}); scans wait for the quiet time alone`;
}

/**
 * `inner` narrowed to the files `scope` covers: the others count as visible
 * at once, so their scans go out when due. `runRound` (the detail doctor and
 * the tests read) still looks at every file it is given.
 */
export function scopeFileChecker(inner: FileChecker, scope: FileCheckScope): FileChecker {
  return {
    runRound: (files) => inner.runRound(files),
    async checkRound(files) {
      const covered = await Promise.all(files.map((f) => scope.covers(f)));
      const checked = files.filter((_, i) => covered[i]);
      const visible = checked.length > 0 ? await inner.checkRound(checked) : new Set<string>();
      files.forEach((f, i) => {
        if (!covered[i]) visible.add(f);
      });
      return visible;
    },
  };
}
