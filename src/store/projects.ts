/** The projects AIC has compiled for, one row per resolved root. */
import { basename } from "node:path";
import { projectHash } from "../shared/paths.js";
import { writeTransaction, type Db } from "./database.js";

export interface ProjectRow {
  id: number;
  root: string;
  hash: string;
  name: string;
  firstSeenMs: number;
  lastSeenMs: number;
}

const SELECT = `SELECT id, root, hash, name, first_seen_ms AS firstSeenMs, last_seen_ms AS lastSeenMs
  FROM projects`;

/** Insert or touch the project; returns its id. Call inside a write transaction or alone. */
export function upsertProject(db: Db, root: string, nowMs = Date.now()): number {
  const run = () => {
    db.prepare(
      `INSERT INTO projects (root, hash, name, first_seen_ms, last_seen_ms) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(root) DO UPDATE SET last_seen_ms = MAX(last_seen_ms, excluded.last_seen_ms)`,
    ).run(root, projectHash(root), basename(root) || root, nowMs, nowMs);
    return (db.prepare("SELECT id FROM projects WHERE root = ?").get(root) as { id: number }).id;
  };
  return db.inTransaction ? run() : writeTransaction(db, run);
}

export function findProject(db: Db, root: string): ProjectRow | undefined {
  return db.prepare(`${SELECT} WHERE root = ?`).get(root) as ProjectRow | undefined;
}

export function listProjects(db: Db): ProjectRow[] {
  return db.prepare(`${SELECT} ORDER BY last_seen_ms DESC, root`).all() as ProjectRow[];
}
