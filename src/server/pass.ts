import { hash, timingSafeEqual } from "node:crypto";

/**
 * Compares a presented pass with the configured one in constant time: both
 * are hashed first, so neither the content nor the length leaks through timing.
 */
export function createPassCheck(expected: string): (presented: string) => boolean {
  const want = hash("sha256", expected, "buffer");
  return (presented) => timingSafeEqual(hash("sha256", presented, "buffer"), want);
}
