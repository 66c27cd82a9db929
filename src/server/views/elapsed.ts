import type { DeliveryView } from "../../queue/types.js";

/** A time span as people read it: "8 s", "1 min 12 s", "2 h 5 min", "3 d 4 h" (two units at most). */
export function elapsedText(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const units: Array<[number, string]> = [
    [86_400, "d"],
    [3_600, "h"],
    [60, "min"],
    [1, "s"],
  ];
  const first = units.findIndex(([size]) => s >= size);
  const [bigSize, bigName] = units[first] as [number, string];
  const [smallSize, smallName] = units[first + 1] as [number, string];
  const big = Math.floor(s / bigSize);
  const small = Math.floor((s - big * bigSize) / smallSize);
  return small === 0 ? `${big} ${bigName}` : `${big} ${bigName} ${small} ${smallName}`;
}

/** "confirmed in 1 min 12 s" for a delivery Plex confirmed; empty otherwise. */
export function confirmedText(d: Pick<DeliveryView, "confirmedAfterMs">): string {
  return d.confirmedAfterMs === null ? "" : `confirmed in ${elapsedText(d.confirmedAfterMs)}`;
}
