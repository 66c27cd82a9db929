import { describe, expect, it } from "vitest";
import { startLoopbackListener } from "../../src/auth/loopback-listener.js";

describe("the loopback listener's answer page", () => {
  it("escapes what the consent screen's redirect carried", async () => {
    const listener = await startLoopbackListener(0);
    try {
      listener.expect("state-1");
      const error = `<script>alert("x")</script>`;
      const res = await fetch(`http://127.0.0.1:${listener.port}/?state=state-1&error=${encodeURIComponent(error)}`);
      const page = await res.text();
      expect(res.status).toBe(400);
      expect(page).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
      expect(page).not.toContain("<script>");
      await expect(listener.code).rejects.toThrow("answered with an error");
    } finally {
      await listener.close();
    }
  });
});
