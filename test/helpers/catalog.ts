import type { Library, LibraryCatalog } from "../../src/domain.js";
import { catalogOfTargets } from "../../src/serve/target-catalog.js";

/**
 * The catalog `serve` builds (catalogOfTargets) over one target whose
 * libraries are `libraries`, in the media server's own path form;
 * `onRefresh` hears each refetch the way in asks for.
 */
export function catalogOfLibraries(libraries: Library[], onRefresh: () => void = () => undefined): LibraryCatalog {
  const target = {
    libraries: {
      knownLibraries: () => libraries,
      refreshLibraries: async () => onRefresh(),
    },
    toTargetPath: (path: string) => path,
  };
  return catalogOfTargets([target]);
}
