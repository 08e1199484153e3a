/**
 * One daemon per user: the daemon holds an exclusively created pidfile for its whole life.
 *
 * A pidfile left by a crashed daemon (kill -9) is stale when its pid is gone, or when the pid is
 * alive but nothing answers on the socket long after start-up (the pid was reused). Stale files
 * are removed under a short-lived takeover mutex after re-reading them, so two starters racing
 * over the same stale file cannot both win.
 */
import { linkSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { PRIVATE_FILE_MODE } from "../shared/paths.js";

export interface LockHolder {
  pid: number;
  startedAt: number;
}

export type LockResult =
  { acquired: true; release: () => void } | { acquired: false; holder: LockHolder | null };

export interface LockDeps {
  pid: number;
  now: () => number;
  isAlive: (pid: number) => boolean;
  /** Does a daemon answer on the socket? */
  socketAnswers: () => Promise<boolean>;
  /** A holder that has not opened its socket after this long is presumed dead. */
  startupGraceMs: number;
}

export const defaultLockDeps = (socketAnswers: () => Promise<boolean>): LockDeps => ({
  pid: process.pid,
  now: Date.now,
  isAlive: processIsAlive,
  socketAnswers,
  startupGraceMs: 30_000,
});

export async function acquireDaemonLock(pidFile: string, deps: LockDeps): Promise<LockResult> {
  const mine = JSON.stringify({ pid: deps.pid, startedAt: deps.now() } satisfies LockHolder);
  for (let attempt = 0; attempt < 5; attempt++) {
    if (createWithContent(pidFile, mine + "\n", deps.pid)) {
      return { acquired: true, release: () => releaseIfMine(pidFile, mine) };
    }
    const seen = readText(pidFile);
    if (seen === null) continue; // removed between our create and read: try again
    const holder = parseHolder(seen);
    if (!(await isStale(pidFile, holder, deps))) return { acquired: false, holder };
    // Another starter is mid-takeover: give it a moment to finish, then look again.
    if (!removeStale(pidFile, seen, deps)) await sleep(25);
  }
  return { acquired: false, holder: parseHolder(readText(pidFile) ?? "") };
}

/**
 * Create `file` holding `text`, or return false if it exists. Written to a temp file first and
 * hard-linked into place (link fails if the target exists), so nobody ever reads it half-written.
 */
function createWithContent(file: string, text: string, pid: number): boolean {
  const tmp = `${file}.${pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, text, { mode: PRIVATE_FILE_MODE });
  try {
    linkSync(tmp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    return false;
  } finally {
    tryUnlink(tmp);
  }
}

/** Who holds the lock right now (null when nobody or unreadable). */
export function readLockHolder(pidFile: string): LockHolder | null {
  return parseHolder(readText(pidFile) ?? "");
}

export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the pid exists but belongs to someone else (so it is not our daemon, but alive).
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function isStale(
  pidFile: string,
  holder: LockHolder | null,
  deps: LockDeps,
): Promise<boolean> {
  if (!holder) {
    // Unreadable content (hand-edited, disk trouble): stale once it has been like this a while.
    return fileAgeMs(pidFile, deps) > deps.startupGraceMs;
  }
  if (holder.pid === deps.pid) return false;
  if (!deps.isAlive(holder.pid)) return true;
  if (deps.now() - holder.startedAt < deps.startupGraceMs) return false;
  return !(await deps.socketAnswers());
}

/** Returns false when another process holds the takeover mutex. */
function removeStale(pidFile: string, seen: string, deps: LockDeps): boolean {
  const mutex = pidFile + ".takeover";
  try {
    writeFileSync(mutex, String(deps.pid), { flag: "wx", mode: PRIVATE_FILE_MODE });
  } catch {
    // A mutex orphaned by a crash in the middle of a takeover is cleared after the grace period.
    if (fileAgeMs(mutex, deps) > deps.startupGraceMs) tryUnlink(mutex);
    return false;
  }
  try {
    // Re-read under the mutex: only the exact stale content we judged may be removed.
    if (readText(pidFile) === seen) tryUnlink(pidFile);
  } finally {
    tryUnlink(mutex);
  }
  return true;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function releaseIfMine(pidFile: string, mine: string): void {
  if (readText(pidFile)?.trim() === mine) tryUnlink(pidFile);
}

function parseHolder(text: string): LockHolder | null {
  try {
    const v = JSON.parse(text) as Partial<LockHolder>;
    if (typeof v.pid === "number" && typeof v.startedAt === "number") {
      return { pid: v.pid, startedAt: v.startedAt };
    }
  } catch {
    // fall through
  }
  return null;
}

function readText(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

function fileAgeMs(file: string, deps: LockDeps): number {
  try {
    return deps.now() - statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function tryUnlink(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}
