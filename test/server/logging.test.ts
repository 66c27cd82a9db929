import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock.js";
import { postJson, startTestService, waitFor, type TestService } from "../helpers/service.js";

let t: TestService | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

interface Line {
  level: number;
  msg: string;
  count?: number;
}
const lines = (): Line[] =>
  (t?.logs() ?? "")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Line);

describe("what the service logs about bad requests", () => {
  it("logs wrong passes at most once a minute, then how many came since", async () => {
    const clock = new ManualClock(Date.now());
    t = await startTestService({}, { clock });
    for (let i = 0; i < 50; i++) expect((await fetch(`${t.origin}/wrong-pass-${i}`, { method: "POST" })).status).toBe(401);
    expect(lines().filter((l) => /wrong pass/.test(l.msg))).toHaveLength(1);
    clock.advance(60_000);
    const summary = lines().filter((l) => /wrong pass since/.test(l.msg));
    expect(summary).toHaveLength(1);
    expect(summary[0]).toMatchObject({ level: 40, count: 49 });
    expect(summary[0]?.msg).toMatch(/^49 requests with a wrong pass since \d{4}-/);
    // A quiet minute later, the next one is logged at once again.
    clock.advance(60_000);
    await fetch(`${t.origin}/wrong-pass-again`);
    expect(lines().filter((l) => l.msg === "request with a wrong pass refused")).toHaveLength(2);
  });

  it("logs a client that hangs up mid-body at debug, not as an error", async () => {
    t = await startTestService();
    const { port } = new URL(t.origin);
    const socket = connect(Number(port), "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    // "Expect: 100-continue" makes the server say when it has read the headers and handed the request on.
    const handedOn = new Promise((resolve) => socket.once("data", resolve));
    const path = new URL(t.base).pathname;
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\nExpect: 100-continue\r\n\r\n`,
    );
    expect(String(await handedOn)).toMatch(/^HTTP\/1\.1 100 Continue/);
    socket.write('{"eventType":');
    socket.destroy();
    await waitFor(() => lines().some((l) => /client went away/.test(l.msg)), 5_000, "the debug line");
    expect(lines().find((l) => /client went away/.test(l.msg))?.level).toBe(20);
    expect(lines().filter((l) => l.level >= 50)).toEqual([]);
    // The service goes on answering.
    expect((await postJson(t.base, { eventType: "Manual", filepath: "/tv/Lost/" })).status).toBe(202);
  });
});
