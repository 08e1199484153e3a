/**
 * A real, separate writer process for the concurrency test:
 *   node --import tsx concurrent-writer.ts <dbPath> <barrierDir> <writerId> <rows>
 * Waits for the barrier so every writer opens (and migrates) the fresh database at the same
 * moment, then writes its rows one transaction at a time, like independent hook processes.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sleepSync } from "../../../src/store/busy-retry.js";
import {
  getCachedContext,
  insertCompilation,
  openDatabase,
  putCachedContext,
  touchSession,
  upsertProject,
  writeTransaction,
} from "../../../src/store/index.js";
import { compilationRecord } from "./compilation-record.js";

const [dbPath, barrierDir, writerId, rowsArg] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
];
const rows = Number(rowsArg);

writeFileSync(join(barrierDir, `ready-${writerId}`), "");
while (!existsSync(join(barrierDir, "go"))) sleepSync(2);

const db = openDatabase({ path: dbPath });
for (let i = 0; i < rows; i++) {
  const now = Date.now();
  writeTransaction(db, () => {
    const projectId = upsertProject(db, `/projects/p${i % 3}`, now);
    insertCompilation(
      db,
      compilationRecord(projectId, {
        createdMs: now,
        conversationId: `conv-${writerId}`,
        editorId: "test",
        triggerSource: "concurrency-test",
        intent: `w${writerId}-${i}`,
        stepIndex: i,
        taskClass: "general",
        filesSelected: 1,
        filesTotal: 2,
        tokensRaw: 100,
        tokensCompiled: 10,
        durationMs: 1,
        guardCounts: {},
        topFiles: [],
      }),
    );
    touchSession(db, {
      conversationId: `conv-${writerId}`,
      projectId,
      editorId: "test",
      modelId: null,
      realIntent: `w${writerId}-${i}`,
      nowMs: now,
    });
  });
  // Autocommit writes outside a transaction too (the cache path).
  if (i % 10 === 0) {
    const projectId = upsertProject(db, `/projects/p${i % 3}`, now);
    putCachedContext(db, `key-${writerId}-${i}`, projectId, "{}", now);
    getCachedContext(db, `key-${writerId}-${i}`);
  }
}
db.close();
process.stdout.write(JSON.stringify({ writerId, rows }));
