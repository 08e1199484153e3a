/**
 * Result cache shared by every AIC process. The key is computed by the caller from everything
 * that changes the output (intent, budget, model, related files, file contents); the store only
 * keeps entries and evicts the least recently used ones per project.
 */
import { writeTransaction, type Db } from "./database.js";

/** Entries kept per project; compiled contexts with their traces are tens of KB each. */
export const CACHE_ENTRIES_PER_PROJECT = 64;

/** A pure read: in WAL mode it never waits for a writer, so a cache hit stays fast. */
export function getCachedContext(db: Db, key: string): string | undefined {
  const row = db.prepare("SELECT context FROM compile_cache WHERE key = ?").get(key) as
    { context: string } | undefined;
  return row?.context;
}

/** Count a hit and keep the entry from eviction (call inside the compilation's write). */
export function touchCachedContext(db: Db, key: string, nowMs = Date.now()): void {
  db.prepare("UPDATE compile_cache SET hits = hits + 1, last_used_ms = ? WHERE key = ?").run(
    nowMs,
    key,
  );
}

export function putCachedContext(
  db: Db,
  key: string,
  projectId: number,
  context: string,
  nowMs = Date.now(),
  keep = CACHE_ENTRIES_PER_PROJECT,
): void {
  writeTransaction(db, () => {
    db.prepare(
      `INSERT INTO compile_cache (key, project_id, created_ms, last_used_ms, context) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(key) DO UPDATE SET context = excluded.context, last_used_ms = excluded.last_used_ms`,
    ).run(key, projectId, nowMs, nowMs, context);
    db.prepare(
      `DELETE FROM compile_cache WHERE project_id = ? AND key NOT IN (
         SELECT key FROM compile_cache WHERE project_id = ? ORDER BY last_used_ms DESC LIMIT ?)`,
    ).run(projectId, projectId, keep);
  });
}

export function cacheEntryCount(db: Db, projectId?: number): number {
  const row = (
    projectId === undefined
      ? db.prepare("SELECT COUNT(*) AS n FROM compile_cache").get()
      : db.prepare("SELECT COUNT(*) AS n FROM compile_cache WHERE project_id = ?").get(projectId)
  ) as { n: number };
  return row.n;
}
