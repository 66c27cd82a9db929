import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness.js";

describe("drive monitor: the last poll, for /health", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => h.close());

  it("is unknown before the first poll, fails while Drive refuses the credentials and recovers after", async () => {
    expect(h.monitor.lastPoll()).toBeUndefined();
    await h.poll();
    expect(h.monitor.lastPoll()).toEqual({ ok: true, at: h.clock.now() });
    const token = [...h.fake.accessTokens];
    h.fake.accessTokens.clear();
    await h.poll();
    expect(h.monitor.lastPoll()?.ok).toBe(false);
    for (const t of token) h.fake.accessTokens.add(t);
    await h.poll();
    expect(h.monitor.lastPoll()?.ok).toBe(true);
  });
});
