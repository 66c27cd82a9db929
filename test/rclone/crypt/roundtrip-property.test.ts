import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createNameCipher } from "../../../src/rclone/crypt/index.js";
import { hasRclone } from "../rclone-cli.js";
import { describeOptions, everyCombination, writeRcloneCrypt } from "./rclone-crypt.js";

// Anything a file name can hold that also survives argv and rclone's one-line-per-name output.
const segment = fc
  .string({
    unit: fc.oneof(
      fc.constantFrom(" ", ".", "!", "-", "é", "ÿ"),
      fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 }),
      fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
    ),
    minLength: 1,
    maxLength: 40,
  })
  .filter((name) => !/[/\n\r\0]/.test(name) && !/[\uD800-\uDFFF]/u.test(name));
const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((segments) => segments.join("/"));

const BATCH = 600;
const RUNS = 2;
const PICKED = everyCombination().filter((options) => options.password2 !== undefined && options.directoryNameEncryption);

describe.skipIf(!hasRclone)("random names round-trip through the real rclone", () => {
  for (const options of PICKED) {
    it(`${RUNS} batches of ${BATCH} random paths, both ways (${describeOptions(options)})`, () => {
      const rclone = writeRcloneCrypt(options);
      const cipher = createNameCipher(options);
      fc.assert(
        fc.property(fc.array(path, { minLength: BATCH, maxLength: BATCH }), (paths) => {
          // One rclone process per batch: ours decoded by rclone, rclone's decoded by ours.
          expect(rclone.decode(paths.map((name) => cipher.encryptPath(name, true)))).toEqual(paths);
          expect(rclone.encode(paths).map((name) => cipher.decryptPath(name, true))).toEqual(paths);
        }),
        // No shrinking: each step would cost an rclone start; the failing batch is reported as it is.
        { numRuns: RUNS, endOnFailure: true },
      );
    });
  }
});
