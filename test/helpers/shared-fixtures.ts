import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * The fixtures shared by every checkout, outside the repository: beside the
 * clone, or where SCANARR_SHARED_FIXTURES says (a git worktree kept
 * elsewhere than beside shared/).
 */
export const SHARED_FIXTURES_DIR = path.resolve(process.env.SCANARR_SHARED_FIXTURES || path.resolve(repoRoot, "../shared/fixtures"));

export interface SharedFixture {
  /** Absolute path of the fixture (a file or a folder). */
  path: string;
  present: boolean;
  /**
   * Whether the tests that read it run: when it is present, and always in CI
   * (CI=true), where a missing fixture must fail the run instead of skipping.
   */
  run: boolean;
  /** A path inside the fixture; throws a clear error when the fixture is missing. */
  file(...parts: string[]): string;
}

/**
 * One fixture under ../shared/fixtures. Outside CI a missing one makes its
 * tests skip with a visible message; in CI they run and fail on it.
 * `probe` is the file whose presence counts (default: the fixture itself).
 */
export function sharedFixture(relative: string, what: string, probe = relative): SharedFixture {
  const fixturePath = path.join(SHARED_FIXTURES_DIR, relative);
  const present = existsSync(path.join(SHARED_FIXTURES_DIR, probe));
  const ci = Boolean(process.env.CI);
  if (!present && !ci) console.warn(`skipping ${what}: ${path.join(SHARED_FIXTURES_DIR, probe)} is absent`);
  return {
    path: fixturePath,
    present,
    run: present || ci,
    file(...parts) {
      if (!present)
        throw new Error(`${path.join(SHARED_FIXTURES_DIR, probe)} is missing, and CI=true requires the shared fixtures (${what} read it)`);
      return path.join(fixturePath, ...parts);
    },
  };
}
