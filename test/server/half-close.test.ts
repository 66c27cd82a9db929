import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, storedScans, TEST_PASS, type TestService } from "../helpers/service.js";

// `nc -N`, some proxies and HTTP libraries send their request and then shut down
// their side of the connection (shutdown(SHUT_WR)): they still read the answer.
let t: TestService;
beforeAll(async () => {
  t = await startTestService({ SERVER_SCAN_DELAY: 3600 });
});
afterAll(async () => t?.stop());

/** Writes `head` + `body`, half-closes, and resolves with every byte the server sent before it closed. */
function halfClosed(head: string, body = ""): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port: t.service.port, host: "127.0.0.1", allowHalfOpen: true });
    let text = "";
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    socket.once("error", reject);
    socket.once("close", () => resolve(text));
    socket.once("end", () => socket.end());
    socket.once("connect", () => {
      socket.write(head + body);
      socket.end();
    });
  });
}

function postHead(path: string, body: string, length = Buffer.byteLength(body)): string {
  return `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;
}

const importOf = (show: string, files: number) =>
  JSON.stringify({
    eventType: "Download",
    series: { path: `/tv/${show}` },
    episodeFiles: Array.from({ length: files }, (_, i) => ({ path: `/tv/${show}/Season ${i % 30}/${show} - s${i % 30}e${i}.mkv` })),
  });

describe("a client that half-closes after its request", () => {
  it("gets the answer to a 3,000-file Download webhook, which is queued once", async () => {
    const body = importOf("Half Closed", 3_000);
    expect(Buffer.byteLength(body)).toBeGreaterThan(140_000);
    const answer = await halfClosed(postHead(`/${TEST_PASS}`, body), body);
    expect(answer).toMatch(/^HTTP\/1\.1 202 /);
    expect(answer).toContain('"queued"');
    expect(storedScans(t).filter((s) => s.folder.startsWith("/data/TV/Half Closed/"))).toHaveLength(30);
  });

  it("gets the dashboard page", async () => {
    const answer = await halfClosed(`GET /${TEST_PASS} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain("</html>");
  });

  it("gets 400 for a body cut short by the close, and nothing of it is queued", async () => {
    const body = importOf("Cut Short", 10);
    const answer = await halfClosed(postHead(`/${TEST_PASS}`, body), body.slice(0, 100));
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(storedScans(t).filter((s) => s.folder.startsWith("/data/TV/Cut Short/"))).toEqual([]);
  });
});
