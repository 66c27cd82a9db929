/**
 * rclone crypt name decoding cost (src/rclone/crypt): µs per name, median of
 * several runs over the same names, for standard names in base32 and
 * base32768 (and base64, obfuscate for comparison), one at a time and a page
 * of 1,000 at a time (decryptSegments), a 6-segment path, and the
 * key derivation (scrypt, once per cipher). The reference, in the same run, is
 * JSON.parse of a Drive changes.list page of the same size: the work the
 * poller already does for each change that carries a name.
 *
 *   node --import tsx bench/crypt-decode.ts [names] [runs]
 */
import { createNameCipher, type CryptOptions } from "../src/rclone/crypt/index.js";

const [nameCount = 5_000, runs = 9] = process.argv.slice(2).map(Number);
/** Drive's changes.list page size: the batch the poller has at hand. */
const PAGE = 1000;
const BASE: CryptOptions = {
  password: "bench password",
  password2: "bench salt",
  filenameEncryption: "standard",
  filenameEncoding: "base32",
  directoryNameEncryption: true,
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Median over `runs` of the µs per item of `work` over `items`. */
function perItem<T>(items: readonly T[], work: (item: T) => unknown): number {
  const samples: number[] = [];
  let sink = 0;
  for (let run = 0; run < runs + 1; run++) {
    const started = process.hrtime.bigint();
    for (const item of items) if (work(item)) sink++;
    const µs = Number(process.hrtime.bigint() - started) / 1000 / items.length;
    if (run > 0) samples.push(µs); // the first run warms the JIT
  }
  if (sink < 0) console.log(sink);
  return median(samples);
}

const names = Array.from(
  { length: nameCount },
  (_, i) => `Show ${i % 500} (20${10 + (i % 15)}) - S0${1 + (i % 9)}E${String(i % 24).padStart(2, "0")} - Episode Title ${i}.mkv`,
);
const paths = names.map((name, i) => `Media/TV/Show ${i % 500} (2015)/Season ${1 + (i % 9)}/Extras/${name}`);
const changesPage = JSON.stringify({
  kind: "drive#changeList",
  newStartPageToken: "12345",
  changes: names.map((name, i) => ({
    kind: "drive#change",
    changeType: "file",
    time: "2026-11-25T12:00:00.000Z",
    removed: false,
    fileId: `1AbCdEfGhIjKlMnOpQrStUvWxYz${i}`,
    file: {
      kind: "drive#file",
      id: `1AbCdEfGhIjKlMnOpQrStUvWxYz${i}`,
      name,
      mimeType: "application/octet-stream",
      parents: ["0AbCdEfGhIjKlMnOpQ"],
      trashed: false,
      md5Checksum: "d41d8cd98f00b204e9800998ecf8427e",
      size: "1234567890",
    },
  })),
});

const keySamples: number[] = [];
for (let i = 0; i < 5; i++) {
  const started = performance.now();
  createNameCipher(BASE);
  keySamples.push(performance.now() - started);
}

const reference = perItem([changesPage], (page) => JSON.parse(page)) / nameCount;
const rows: Array<[string, number]> = [];
for (const [label, options] of [
  ["standard, base32", BASE],
  ["standard, base32768", { ...BASE, filenameEncoding: "base32768" }],
  ["standard, base64", { ...BASE, filenameEncoding: "base64" }],
  ["obfuscate", { ...BASE, filenameEncryption: "obfuscate" }],
] as const) {
  const cipher = createNameCipher(options);
  const encrypted = names.map((name) => cipher.encryptSegment(name, false));
  rows.push([`${label}: one name`, perItem(encrypted, (name) => cipher.decryptSegment(name, false))]);
  const pages = Array.from({ length: Math.ceil(nameCount / PAGE) }, (_, i) => encrypted.slice(i * PAGE, (i + 1) * PAGE));
  rows.push([`${label}: pages of ${PAGE} (decryptSegments)`, perItem(pages, (page) => cipher.decryptSegments(page, false)) / PAGE]);
  if (label === "standard, base32" || label === "standard, base32768") {
    const encryptedPaths = paths.map((p) => cipher.encryptPath(p, true));
    rows.push([`${label}: a 6-segment path`, perItem(encryptedPaths, (p) => cipher.decryptPath(p, true))]);
  }
}

console.log(`${nameCount} names of ~45 characters, median of ${runs} runs; Node ${process.version}`);
console.log(`key derivation (scrypt N=16384 r=8 p=1, once per cipher): ${median(keySamples).toFixed(1)} ms median of 5`);
console.log(`reference: JSON.parse of a changes.list page, per change: ${reference.toFixed(2)} µs`);
console.log("case | µs per item | × reference");
for (const [label, µs] of rows) console.log(`${label} | ${µs.toFixed(2)} | ${(µs / reference).toFixed(2)}`);
