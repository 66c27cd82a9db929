import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Compares a presented pass with the configured one in constant time: both
 * are hashed first, so neither the content nor the length leaks through timing.
 */
export function createPassCheck(expected: string): (presented: string) => boolean {
  const want = createHash("sha256").update(expected).digest();
  return (presented) => timingSafeEqual(createHash("sha256").update(presented).digest(), want);
}
