/**
 * Several processes (MCP server, daemon, hooks, CLI) share one SQLite file. busy_timeout makes a
 * writer wait for the lock, but SQLite skips the busy handler in a few cases (WAL recovery, a
 * read transaction upgraded to a write, switching journal mode on a fresh file). This wrapper
 * retries exactly those "busy/locked" failures with a short backoff so callers never see
 * "database is locked".
 */

const BUSY_CODES = new Set(["SQLITE_BUSY", "SQLITE_LOCKED"]);

export function isBusyError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === "string") {
    for (const busy of BUSY_CODES) if (code === busy || code.startsWith(`${busy}_`)) return true;
  }
  return /database is locked|database is busy/i.test(String((err as Error)?.message ?? ""));
}

/** Block the thread briefly (better-sqlite3 is synchronous, so callers are too). */
export function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export interface RetryOptions {
  /** Give up after this long (ms) of consecutive busy failures. */
  maxWaitMs?: number;
  sleep?: (ms: number) => void;
}

export function withBusyRetry<T>(fn: () => T, options: RetryOptions = {}): T {
  const maxWaitMs = options.maxWaitMs ?? 30_000;
  const sleep = options.sleep ?? sleepSync;
  let waited = 0;
  for (let attempt = 0; ; attempt++) {
    try {
      return fn();
    } catch (err) {
      if (!isBusyError(err) || waited >= maxWaitMs) throw err;
      // Jittered exponential backoff, capped at 200 ms per step.
      const delay = Math.min(200, 5 * 2 ** Math.min(attempt, 6)) * (0.5 + Math.random());
      sleep(delay);
      waited += delay;
    }
  }
}
