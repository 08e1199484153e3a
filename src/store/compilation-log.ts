/** One row per compilation: what was asked, what was sent, how it went. */
import { writeTransaction, type Db } from "./database.js";

export interface TopFile {
  path: string;
  tier: string;
  tokens: number;
}

export interface CompilationRecord {
  createdMs: number;
  projectId: number;
  conversationId: string | null;
  editorId: string | null;
  modelId: string | null;
  triggerSource: string | null;
  intent: string;
  intentGiven: string | null;
  intentSource: string;
  stepIndex: number | null;
  stepIntent: string | null;
  conversationTokens: number | null;
  taskClass: string | null;
  filesSelected: number;
  filesTotal: number;
  tokensRaw: number;
  tokensCompiled: number;
  tokenBudget: number;
  cacheHit: boolean;
  durationMs: number;
  guardCounts: Record<string, number>;
  topFiles: TopFile[];
}

export interface CompilationRow extends CompilationRecord {
  id: number;
  projectRoot: string;
  reparentedFrom: string | null;
}

interface RawRow extends Omit<CompilationRow, "cacheHit" | "guardCounts" | "topFiles"> {
  cacheHit: number;
  guardCounts: string;
  topFiles: string;
}

const SELECT = `SELECT l.id, l.created_ms AS createdMs, l.project_id AS projectId, p.root AS projectRoot,
    l.conversation_id AS conversationId, l.reparented_from AS reparentedFrom, l.editor_id AS editorId,
    l.model_id AS modelId, l.trigger_source AS triggerSource, l.intent, l.intent_given AS intentGiven,
    l.intent_source AS intentSource, l.step_index AS stepIndex, l.step_intent AS stepIntent,
    l.conversation_tokens AS conversationTokens, l.task_class AS taskClass,
    l.files_selected AS filesSelected, l.files_total AS filesTotal, l.tokens_raw AS tokensRaw,
    l.tokens_compiled AS tokensCompiled, l.token_budget AS tokenBudget, l.cache_hit AS cacheHit,
    l.duration_ms AS durationMs, l.guard_counts AS guardCounts, l.top_files AS topFiles
  FROM compilation_log l JOIN projects p ON p.id = l.project_id`;

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

function fromRaw(raw: RawRow): CompilationRow {
  return {
    ...raw,
    cacheHit: raw.cacheHit === 1,
    guardCounts: parseJson(raw.guardCounts, {}),
    topFiles: parseJson(raw.topFiles, []),
  };
}

/** Insert a row (inside the caller's transaction if there is one); returns its id. */
export function insertCompilation(db: Db, rec: CompilationRecord): number {
  const run = () =>
    Number(
      db
        .prepare(
          `INSERT INTO compilation_log (created_ms, project_id, conversation_id, editor_id, model_id,
            trigger_source, intent, intent_given, intent_source, step_index, step_intent,
            conversation_tokens, task_class, files_selected, files_total, tokens_raw, tokens_compiled,
            token_budget, cache_hit, duration_ms, guard_counts, top_files)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          rec.createdMs,
          rec.projectId,
          rec.conversationId,
          rec.editorId,
          rec.modelId,
          rec.triggerSource,
          rec.intent,
          rec.intentGiven,
          rec.intentSource,
          rec.stepIndex,
          rec.stepIntent,
          rec.conversationTokens,
          rec.taskClass,
          rec.filesSelected,
          rec.filesTotal,
          rec.tokensRaw,
          rec.tokensCompiled,
          rec.tokenBudget,
          rec.cacheHit ? 1 : 0,
          rec.durationMs,
          JSON.stringify(rec.guardCounts),
          JSON.stringify(rec.topFiles),
        ).lastInsertRowid,
    );
  return db.inTransaction ? run() : writeTransaction(db, run);
}

export interface LogFilter {
  /** Only rows at or after this time. */
  sinceMs?: number;
  projectId?: number;
  conversationId?: string;
}

function where(filter: LogFilter): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (filter.sinceMs !== undefined) {
    clauses.push("l.created_ms >= ?");
    params.push(filter.sinceMs);
  }
  if (filter.projectId !== undefined) {
    clauses.push("l.project_id = ?");
    params.push(filter.projectId);
  }
  if (filter.conversationId !== undefined) {
    clauses.push("l.conversation_id = ?");
    params.push(filter.conversationId);
  }
  return { sql: clauses.length ? ` WHERE ${clauses.join(" AND ")}` : "", params };
}

/** Rows matching the filter, oldest first. */
export function listCompilations(db: Db, filter: LogFilter = {}): CompilationRow[] {
  const w = where(filter);
  return (
    db.prepare(`${SELECT}${w.sql} ORDER BY l.created_ms, l.id`).all(...w.params) as RawRow[]
  ).map(fromRaw);
}

export function lastCompilation(db: Db, filter: LogFilter = {}): CompilationRow | undefined {
  const w = where(filter);
  const raw = db
    .prepare(`${SELECT}${w.sql} ORDER BY l.created_ms DESC, l.id DESC LIMIT 1`)
    .get(...w.params) as RawRow | undefined;
  return raw && fromRaw(raw);
}

/**
 * Move a subagent's rows to its parent conversation (seed §7.11). Idempotent: a second call
 * finds nothing left to move. Returns the number of rows moved.
 */
export function reparentConversation(db: Db, childId: string, parentId: string): number {
  if (childId === parentId) return 0;
  return writeTransaction(db, () => {
    const moved = db
      .prepare(
        `UPDATE compilation_log SET conversation_id = ?, reparented_from = ? WHERE conversation_id = ?`,
      )
      .run(parentId, childId, childId).changes;
    db.prepare(`UPDATE sessions SET parent_conversation_id = ? WHERE conversation_id = ?`).run(
      parentId,
      childId,
    );
    return moved;
  });
}
