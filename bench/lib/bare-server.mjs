// The reference of the wrk mode (bench/ingest.ts --wrk): a bare node:http
// server that reads the whole body and answers 202, nothing else. Prints
// {"port":N} once it listens (the bench reads it like serve's log line).
import { createServer } from "node:http";

const server = createServer((req, res) => {
  let size = 0;
  req.on("data", (chunk) => {
    size += chunk.length;
  });
  req.on("end", () => {
    res.writeHead(202, { "content-type": "application/json" });
    res.end(`{"received":${size}}`);
  });
});
server.listen(0, "127.0.0.1", () => {
  console.log(JSON.stringify({ port: server.address().port }));
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
