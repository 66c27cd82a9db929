import { createServer, type Server } from "node:http";

export interface RecordedRcCall {
  command: string;
  body: Record<string, unknown>;
  status: number;
}

/**
 * A loopback pass-through in front of a real rclone remote control that
 * records each call (command, JSON body, status), so tests can count the
 * calls scanarr makes and read what it sent; rclone still does the work.
 */
export async function startRcRecorder(rcUrl: string): Promise<{ url: string; calls: RecordedRcCall[]; close(): Promise<void> }> {
  const calls: RecordedRcCall[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (req.headers.authorization) headers.authorization = req.headers.authorization;
      const upstream = await fetch(`${rcUrl}${req.url ?? "/"}`, { method: req.method ?? "POST", headers, body: text });
      const answer = await upstream.text();
      calls.push({
        command: (req.url ?? "").replace(/^\//, ""),
        body: JSON.parse(text || "{}") as Record<string, unknown>,
        status: upstream.status,
      });
      res.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "text/plain" }).end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
