import { describe, expect, it } from "vitest";
import { escapeHtml, html, joinHtml, trustedHtml } from "../../src/lib/html.js";

const HOSTILE = `<img src=x onerror="alert('x')">&`;
const ESCAPED = "&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;&amp;";

describe("the html template", () => {
  it("escapes every interpolated text, in content and in attributes", () => {
    expect(escapeHtml(HOSTILE)).toBe(ESCAPED);
    expect(html`<p title="${HOSTILE}">${HOSTILE}</p>`.text).toBe(`<p title="${ESCAPED}">${ESCAPED}</p>`);
  });

  it("keeps markup that html itself made, and escapes the same markup given as a string", () => {
    const inner = html`<b>${HOSTILE}</b>`;
    expect(html`<p>${inner}</p>`.text).toBe(`<p><b>${ESCAPED}</b></p>`);
    expect(html`<p>${inner.text}</p>`.text).toBe(`<p>${escapeHtml(`<b>${ESCAPED}</b>`)}</p>`);
  });

  it("joins arrays, writes numbers and leaves nothing for false, null and undefined", () => {
    expect(html`<ul>${["<a>", html`<li>${2}</li>`]}</ul>`.text).toBe("<ul>&lt;a&gt;<li>2</li></ul>");
    expect(html`[${false}${null}${undefined}${0}]`.text).toBe("[0]");
    expect(joinHtml([html`<i>a</i>`, "<b>"], " · ").text).toBe("<i>a</i> · &lt;b&gt;");
  });

  it("takes trusted markup as it is", () => {
    expect(html`<style>${trustedHtml("a>b{}")}</style>`.text).toBe("<style>a>b{}</style>");
  });
});
