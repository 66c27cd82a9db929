import { html } from "../../lib/html.js";
import { page } from "../views/html.js";

/**
 * autoscan's manual page at GET /triggers/manual: one folder per line, sent
 * back to the same URL as `dir` fields. A plain form, no script or CDN.
 */
export function renderManualForm(): string {
  return page(
    "scanarr — manual scan",
    html`<h1>scanarr — manual scan</h1>
<form method="post" action="" style="flex-direction:column">
  <label for="dir">Folders to scan, one per line</label>
  <textarea id="dir" name="dir" rows="6" required placeholder="/mnt/unionfs/Media/TV/Show/Season 1"></textarea>
  <button type="submit" id="submit">Scan</button>
</form>
<p>Paths are rewritten by SERVER_PATH_MAPPINGS. Scripts call this URL with <code>?dir=…&amp;dir=…</code> (any method but GET and HEAD).</p>`,
  );
}
