/*
 * rclone keeps a version stamp "-vYYYY-MM-DD-HHMMSS-mmm" (b2's old versions)
 * out of the cipher: it is taken off the last segment before the extension,
 * the rest is encrypted or decrypted, and the stamp is put back before the
 * new extension.
 */

const ANYWHERE = /-v\d{4}-\d{2}-\d{2}-\d{6}-\d{3}/;
const AT_END = /-v(\d{4})-(\d{2})-(\d{2})-(\d{2})(\d{2})(\d{2})-\d{3}$/;

/** path.Ext in Go, with a leading-dot name (".file") counted as having no extension. */
function splitExtension(name: string): [base: string, extension: string] {
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return [name, ""];
  return [name.slice(0, dot), name.slice(dot)];
}

function isRealTime(year: number, month: number, day: number, hour: number, minute: number, second: number): boolean {
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  return day <= days;
}

export interface Unversioned {
  name: string;
  /** The stamp taken off, to give back to restoreVersion; undefined when there was none. */
  stamp?: string;
}

export function takeVersion(segment: string): Unversioned {
  if (!ANYWHERE.test(segment)) return { name: segment };
  const [base, extension] = splitExtension(segment);
  const found = AT_END.exec(base);
  if (!found) return { name: segment };
  const [year, month, day, hour, minute, second] = found.slice(1).map(Number) as [number, number, number, number, number, number];
  if (!isRealTime(year, month, day, hour, minute, second)) return { name: segment };
  return { name: base.slice(0, found.index) + extension, stamp: found[0] };
}

export function restoreVersion(name: string, stamp: string | undefined): string {
  if (stamp === undefined) return name;
  const [base, extension] = splitExtension(name);
  return base + stamp + extension;
}
