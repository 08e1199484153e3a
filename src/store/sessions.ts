/**
 * One row per conversation: who is talking (editor, model), in which project, and the last real
 * intent, which a weak follow-up ("continue", "yes") falls back to.
 */
import { writeTransaction, type Db } from "./database.js";

export interface SessionRow {
  conversationId: string;
  projectId: number | null;
  parentConversationId: string | null;
  editorId: string | null;
  modelId: string | null;
  startedMs: number;
  lastSeenMs: number;
  lastIntent: string | null;
}

export interface SessionTouch {
  conversationId: string;
  projectId: number;
  editorId: string | null;
  modelId: string | null;
  /** Only a real intent updates last_intent; pass null for weak ones. */
  realIntent: string | null;
  nowMs: number;
}

export function touchSession(db: Db, s: SessionTouch): void {
  const run = () =>
    db
      .prepare(
        `INSERT INTO sessions (conversation_id, project_id, editor_id, model_id, started_ms, last_seen_ms, last_intent)
         VALUES (@conversationId, @projectId, @editorId, @modelId, @nowMs, @nowMs, @realIntent)
         ON CONFLICT(conversation_id) DO UPDATE SET
           project_id = excluded.project_id,
           editor_id = COALESCE(excluded.editor_id, editor_id),
           model_id = COALESCE(excluded.model_id, model_id),
           last_seen_ms = MAX(last_seen_ms, excluded.last_seen_ms),
           last_intent = COALESCE(excluded.last_intent, last_intent)`,
      )
      .run(s);
  if (db.inTransaction) run();
  else writeTransaction(db, run);
}

export function getSession(db: Db, conversationId: string): SessionRow | undefined {
  return db
    .prepare(
      `SELECT conversation_id AS conversationId, project_id AS projectId,
         parent_conversation_id AS parentConversationId, editor_id AS editorId, model_id AS modelId,
         started_ms AS startedMs, last_seen_ms AS lastSeenMs, last_intent AS lastIntent
       FROM sessions WHERE conversation_id = ?`,
    )
    .get(conversationId) as SessionRow | undefined;
}
