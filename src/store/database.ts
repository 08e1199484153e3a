/**
 * Opening the shared database: `~/.aic/aic.sqlite` (AIC_HOME overrides), folder 0700, file 0600,
 * WAL so readers never block the writer, a busy timeout, and migrations applied on open.
 */
import Database from "better-sqlite3";
import { chmodSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { databasePath, ensurePrivateDir, PRIVATE_FILE_MODE } from "../shared/paths.js";
import { withBusyRetry } from "./busy-retry.js";
import { migrate } from "./migrations.js";

export type Db = Database.Database;

export const BUSY_TIMEOUT_MS = 5000;

export interface OpenOptions {
  /** Defaults to databasePath(env). */
  path?: string;
  env?: NodeJS.ProcessEnv;
}

function tightenMode(path: string): void {
  try {
    if ((statSync(path).mode & 0o777) !== PRIVATE_FILE_MODE) chmodSync(path, PRIVATE_FILE_MODE);
  } catch {
    // not our file to change (another owner); SQLite still works
  }
}

export function openDatabase(options: OpenOptions = {}): Db {
  const path = options.path ?? databasePath(options.env);
  ensurePrivateDir(dirname(path));
  const db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
  try {
    // SQLite gives the -wal and -shm files the database file's mode, so this covers them too.
    tightenMode(path);
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // Switching to WAL needs a brief exclusive lock that the busy handler does not cover.
    withBusyRetry(() => db.pragma("journal_mode = WAL"));
    db.pragma("synchronous = NORMAL");
    db.pragma("foreign_keys = ON");
    withBusyRetry(() => migrate(db));
  } catch (err) {
    db.close();
    throw new Error(`cannot open the AIC database at ${path}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  return db;
}

const shared = new Map<string, Db>();

/**
 * One connection per database file per process, opened on first use. Long-lived processes (the
 * MCP server, the daemon) keep it; short ones let process exit close it.
 */
export function sharedDatabase(options: OpenOptions = {}): Db {
  const path = options.path ?? databasePath(options.env);
  let db = shared.get(path);
  if (!db || !db.open) {
    db = openDatabase({ ...options, path });
    shared.set(path, db);
  }
  return db;
}

/**
 * Run `fn` in a write transaction that takes the write lock up front (BEGIN IMMEDIATE), so it
 * never fails half-way on a lock upgrade, and retry it as a whole if the lock stays busy.
 */
export function writeTransaction<T>(db: Db, fn: () => T): T {
  return withBusyRetry(() => db.transaction(fn).immediate());
}
