import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatSummary, projectsReport, statusReport } from "../../src/service/diagnostics.js";
import {
  insertCompilation,
  openDatabase,
  upsertProject,
  type CompilationRecord,
} from "../../src/store/index.js";
import { compilationRecord } from "../store/helpers/compilation-record.js";

const DAY = 86_400_000;
const NOW = Date.parse("2026-06-15T12:00:00Z");

/** Recent, cheap, clean tool-gate rows unless a test says otherwise. */
function row(projectId: number, over: Partial<CompilationRecord>): CompilationRecord {
  return compilationRecord(projectId, {
    createdMs: NOW,
    editorId: "cursor",
    triggerSource: "tool_gate",
    intent: "x",
    filesSelected: 2,
    tokensRaw: 1000,
    tokensCompiled: 100,
    durationMs: 10,
    guardCounts: {},
    topFiles: [],
    ...over,
  });
}

function seeded() {
  const db = openDatabase({ path: join(mkdtempSync(join(tmpdir(), "aic-diag-")), "aic.sqlite") });
  const a = upsertProject(db, "/p/a");
  const b = upsertProject(db, "/p/b");
  insertCompilation(db, row(a, { createdMs: NOW - 10 * DAY, durationMs: 999 })); // outside 7 days
  insertCompilation(
    db,
    row(a, {
      createdMs: NOW - 2 * DAY,
      durationMs: 30,
      conversationId: "c",
      guardCounts: { "private-key": 1 },
    }),
  );
  insertCompilation(
    db,
    row(a, {
      createdMs: NOW - DAY,
      durationMs: 10,
      cacheHit: true,
      conversationId: "c",
      guardCounts: { "private-key": 2, "prompt-injection": 1 },
    }),
  );
  insertCompilation(
    db,
    row(b, {
      createdMs: NOW,
      durationMs: 20,
      tokensRaw: 3000,
      tokensCompiled: 1000,
      triggerSource: "session_start",
    }),
  );
  return { db };
}

describe("diagnostics reports", () => {
  it("status counts only the window, with an honest reduction over summed tokens", () => {
    const { db } = seeded();
    const s = statusReport(db, { nowMs: NOW });
    expect(s).toMatchObject({
      days: 7,
      compilations: 3,
      projects: 2,
      conversations: 1,
      cacheHits: 1,
      tokensRaw: 5000,
      tokensCompiled: 1200,
      reduction: 1 - 1200 / 5000,
      medianDurationMs: 20,
      byProject: { "/p/a": 2, "/p/b": 1 },
      byTrigger: { tool_gate: 2, session_start: 1 },
      guardFindings: { "private-key": 3, "prompt-injection": 1 },
      lastCompilationMs: NOW,
    });
    expect(statusReport(db, { nowMs: NOW, days: 30 }).compilations).toBe(4);
    expect(statusReport(db, { nowMs: NOW, projectRoot: "/p/b" }).compilations).toBe(1);
    expect(statusReport(db, { nowMs: NOW, projectRoot: "/p/unknown" }).compilations).toBe(0);
    expect(() => statusReport(db, { days: 0 })).toThrow(/days must be a positive number/);
  });

  it("chat summary and projects", () => {
    const { db } = seeded();
    expect(chatSummary(db, { conversationId: "c" })).toMatchObject({
      compilations: 2,
      cacheHits: 1,
      projectRoots: ["/p/a"],
    });
    expect(() => chatSummary(db, { conversationId: " " })).toThrow(
      /conversationId must not be empty/,
    );
    const rows = projectsReport(db).map((p) => [p.root, p.compilations, p.exists]);
    expect(rows.sort()).toEqual([
      ["/p/a", 3, false],
      ["/p/b", 1, false],
    ]);
  });
});
