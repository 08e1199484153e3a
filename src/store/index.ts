/** The SQLite store: one shared database for every AIC process. */
export {
  openDatabase,
  sharedDatabase,
  writeTransaction,
  BUSY_TIMEOUT_MS,
  type Db,
  type OpenOptions,
} from "./database.js";
export { migrate, MIGRATIONS, SCHEMA_VERSION, type Migration } from "./migrations.js";
export { withBusyRetry, isBusyError } from "./busy-retry.js";
export { upsertProject, findProject, listProjects, type ProjectRow } from "./projects.js";
export {
  insertCompilation,
  listCompilations,
  lastCompilation,
  reparentConversation,
  type CompilationRecord,
  type CompilationRow,
  type LogFilter,
  type TopFile,
} from "./compilation-log.js";
export { touchSession, getSession, type SessionRow, type SessionTouch } from "./sessions.js";
export {
  getCachedContext,
  touchCachedContext,
  putCachedContext,
  cacheEntryCount,
  CACHE_ENTRIES_PER_PROJECT,
} from "./compile-cache.js";
