import { describe, expect, it } from "vitest";
import { prepareFileStatements } from "../../src/queue/scan-files.js";
import { prepareRequestStatements } from "../../src/queue/scan-requests.js";
import { prepareStatements } from "../../src/queue/statements.js";
import { tempDatabase } from "./helpers.js";

function planOf(db: ReturnType<typeof tempDatabase>["db"], sql: string): string {
  const params = Array<number>((sql.match(/\?/g) ?? []).length).fill(1);
  const named = /@into/.test(sql) ? [{ into: 1, from: 2 }] : params;
  const rows = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...named) as Array<{ detail: string }>;
  return rows.map((r) => r.detail).join("; ");
}

describe("query plans", () => {
  it("finds a folder's open ancestors and descendants through the open-folder index", () => {
    const { db } = tempDatabase();
    const st = prepareStatements(db);
    expect(planOf(db, st.openFolder.source)).toMatch(/SEARCH scan_queue USING INDEX scan_queue_open_folder \(folder=\?\)/);
    expect(planOf(db, st.openRange.source)).toMatch(/USING INDEX scan_queue_open_folder \(folder>\? AND folder<\?\)/);
    expect(planOf(db, st.pushDeliveries.source)).toMatch(/USING INDEX scan_delivery_scan_target \(scan_id=\?\)/);
  });

  it("finds a scan's paths through the (scan_id, path_key) indexes", () => {
    const { db } = tempDatabase();
    const rst = prepareRequestStatements(db);
    const fst = prepareFileStatements(db);
    expect(planOf(db, rst.find.source)).toMatch(/USING INDEX scan_request_scan_key \(scan_id=\? AND path_key=\?\)/);
    expect(planOf(db, rst.move.source)).toMatch(/USING COVERING INDEX scan_request_scan_key \(scan_id=\?\)/);
    expect(planOf(db, rst.dropShared.source)).toMatch(/scan_request_scan_key \(scan_id=\? AND path_key=\?\)/);
    expect(planOf(db, rst.originsIn.source)).toMatch(/SEARCH scan_request USING INDEX scan_request_scan_key \(scan_id=\?\)/);
    expect(planOf(db, fst.findFile.source)).toMatch(/USING INDEX scan_file_scan_key \(scan_id=\? AND path_key=\?\)/);
    expect(planOf(db, fst.markSeen.source)).toMatch(/USING INDEX scan_file_scan_key \(scan_id=\? AND path_key=\?\)/);
    expect(planOf(db, fst.moveFiles.source)).toMatch(/scan_file_scan_key \(scan_id=\? AND path_key=\?\)/);
  });

  it("never walks a whole table without an index in any statement", () => {
    const { db } = tempDatabase();
    const st = prepareStatements(db);
    const fullScans = Object.entries(st)
      .map(([name, statement]) => [name, planOf(db, statement.source)] as const)
      .filter(([, plan]) => /(^|; )SCAN (scan_queue|scan_delivery|s|d)(;|$)/.test(plan));
    expect(fullScans).toEqual([]);
  });
});
