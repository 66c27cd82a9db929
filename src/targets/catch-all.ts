import type { Library } from "../domain.js";

const DRIVES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ".split("").map((letter) => `${letter}:\\`);

/**
 * The one library of a target with no libraries of its own (autoscan, Tdarr,
 * a command): it takes every absolute folder, the POSIX root, the UNC root
 * and every drive root, and decides itself what to do with it.
 */
export const CATCH_ALL_LIBRARY: Library = { id: "all", title: "all folders", type: "any", locations: ["/", "\\\\", ...DRIVES] };
