/**
 * The dashboard's only script, served from our own origin (the page's CSP
 * allows script-src 'self' and nothing inline). Without it every form still
 * works as plain HTML. With it: the queue and history swap in place when the
 * server says the queue changed (server-sent events), action forms post in
 * the background, and relative times keep counting.
 */
export const CLIENT_SCRIPT = `"use strict";
(function () {
  var base = document.currentScript.src.replace(/dashboard\\.js$/, "");
  function rel(ms) {
    var s = Math.round(Math.abs(ms) / 1000);
    if (s < 1) return "now";
    var span = s < 60 ? s + " s" : s < 3600 ? Math.round(s / 60) + " min" : s < 172800 ? Math.round(s / 3600) + " h" : Math.round(s / 86400) + " d";
    return ms > 0 ? "in " + span : span + " ago";
  }
  function tick() {
    var now = Date.now();
    document.querySelectorAll("time[datetime]").forEach(function (t) { t.textContent = rel(Date.parse(t.getAttribute("datetime")) - now); });
  }
  var loading = false, again = false;
  function refresh() {
    if (loading) { again = true; return; }
    loading = true;
    fetch(base + "fragment" + location.search, { headers: { accept: "text/html" }, credentials: "same-origin" })
      .then(function (r) { if (r.status === 401) location.reload(); return r.ok ? r.text() : null; })
      .then(function (html) {
        var live = document.getElementById("live");
        if (html && live) { live.outerHTML = html; tick(); }
      })
      .finally(function () { loading = false; if (again) { again = false; refresh(); } });
  }
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form.classList || !form.classList.contains("action")) return;
    e.preventDefault();
    fetch(form.action, { method: "POST", body: new URLSearchParams(new FormData(form)), headers: { accept: "application/json" }, credentials: "same-origin" })
      .then(function (r) { if (r.status === 401) location.reload(); return r.json(); })
      .then(function (answer) {
        var note = document.getElementById("action-result");
        if (!note) { note = document.createElement("p"); note.id = "action-result"; note.className = "notice"; document.body.insertBefore(note, document.getElementById("live")); }
        note.textContent = answer.message || answer.error || "";
        refresh();
      });
  });
  if (window.EventSource) {
    var events = new EventSource(base + "events");
    events.addEventListener("changed", refresh);
  }
  setInterval(tick, 15000);
  document.documentElement.dataset.live = "on";
})();
`;
