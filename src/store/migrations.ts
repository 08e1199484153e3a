/**
 * Versioned schema. PRAGMA user_version holds the number of migrations applied; each migration
 * runs once, inside a write transaction that re-reads the version first, so two processes
 * opening a fresh database at the same moment cannot both apply it.
 *
 * To change the schema, append a migration; never edit one that has shipped.
 */
import type Database from "better-sqlite3";

export interface Migration {
  version: number;
  description: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: "projects, compilation_log, compile_cache, sessions",
    sql: `
      CREATE TABLE projects (
        id            INTEGER PRIMARY KEY,
        root          TEXT NOT NULL UNIQUE,  -- absolute, resolved path
        hash          TEXT NOT NULL,         -- projectHash(root): the id used in ~/.aic paths
        name          TEXT NOT NULL,         -- basename, for display
        first_seen_ms INTEGER NOT NULL,
        last_seen_ms  INTEGER NOT NULL
      );

      CREATE TABLE compilation_log (
        id                  INTEGER PRIMARY KEY,
        created_ms          INTEGER NOT NULL,
        project_id          INTEGER NOT NULL REFERENCES projects(id),
        conversation_id     TEXT,
        reparented_from     TEXT,             -- child conversation the row was moved from
        editor_id           TEXT,
        model_id            TEXT,
        trigger_source      TEXT,
        intent              TEXT NOT NULL,    -- the intent actually compiled
        intent_given        TEXT,             -- what the caller sent, when it differs
        intent_source       TEXT NOT NULL,    -- given | conversation-fallback
        step_index          INTEGER,
        step_intent         TEXT,
        conversation_tokens INTEGER,
        task_class          TEXT,
        files_selected      INTEGER NOT NULL,
        files_total         INTEGER NOT NULL,
        tokens_raw          INTEGER NOT NULL,
        tokens_compiled     INTEGER NOT NULL,
        token_budget        INTEGER NOT NULL,
        cache_hit           INTEGER NOT NULL,
        duration_ms         REAL NOT NULL,
        guard_counts        TEXT NOT NULL DEFAULT '{}',  -- JSON {type: count}
        top_files           TEXT NOT NULL DEFAULT '[]'   -- JSON [{path, tier, tokens}]
      );
      CREATE INDEX compilation_log_time ON compilation_log(created_ms);
      CREATE INDEX compilation_log_project_time ON compilation_log(project_id, created_ms);
      CREATE INDEX compilation_log_conversation ON compilation_log(conversation_id, created_ms);

      CREATE TABLE compile_cache (
        key          TEXT PRIMARY KEY,
        project_id   INTEGER NOT NULL REFERENCES projects(id),
        created_ms   INTEGER NOT NULL,
        last_used_ms INTEGER NOT NULL,
        hits         INTEGER NOT NULL DEFAULT 0,
        context      TEXT NOT NULL                -- JSON CompiledContext
      );
      CREATE INDEX compile_cache_project_used ON compile_cache(project_id, last_used_ms);

      CREATE TABLE sessions (
        conversation_id        TEXT PRIMARY KEY,
        project_id             INTEGER REFERENCES projects(id),
        parent_conversation_id TEXT,             -- set when a subagent's rows were reparented
        editor_id              TEXT,
        model_id               TEXT,
        started_ms             INTEGER NOT NULL,
        last_seen_ms           INTEGER NOT NULL,
        last_intent            TEXT               -- last real (non-weak) intent, for fallbacks
      );
    `,
  },
];

export const SCHEMA_VERSION = MIGRATIONS.length;

function userVersion(db: Database.Database): number {
  return db.pragma("user_version", { simple: true }) as number;
}

/** Apply pending migrations. Throws a clear error for a database newer than this AIC. */
export function migrate(
  db: Database.Database,
  migrations: readonly Migration[] = MIGRATIONS,
): number {
  const target = migrations.length;
  if (userVersion(db) === target) return target;
  db.transaction(() => {
    const current = userVersion(db);
    if (current > target) {
      throw new Error(
        `${db.name}: schema version ${current} is newer than this AIC understands (${target}); ` +
          `upgrade AIC, or move the file away to start a fresh database`,
      );
    }
    for (const m of migrations.slice(current)) db.exec(m.sql);
    db.pragma(`user_version = ${target}`);
  }).immediate();
  return target;
}
