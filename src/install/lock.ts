/**
 * One installer at a time per target. The lock is a file created with O_EXCL under AIC's run
 * folder (never inside the project, so a refused install leaves the project untouched). It
 * holds the owner's pid; a lock whose pid is no longer alive (a killed install) is stale and
 * taken over.
 */
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import { processIsAlive } from "../daemon/lock.js";
import { ensurePrivateDir, projectHash, runDir } from "../shared/paths.js";

export interface LockDeps {
  isAlive: (pid: number) => boolean;
  sleep: (ms: number) => Promise<void>;
  /** How long to wait for another live installer before giving up. */
  timeoutMs: number;
  now: () => number;
}

export const defaultLockDeps: LockDeps = {
  isAlive: processIsAlive,
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  timeoutMs: 60_000,
  now: () => Date.now(),
};

export class LockBusyError extends Error {
  constructor(
    readonly lockPath: string,
    readonly holderPid: number | undefined,
  ) {
    super(
      `another AIC install or uninstall (pid ${holderPid ?? "unknown"}) is working on this target ` +
        `and did not finish in time; wait for it, or delete ${lockPath} if no such process exists`,
    );
    this.name = "LockBusyError";
  }
}

export function installLockPath(targetRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(runDir(env), `install-${projectHash(targetRoot)}.lock`);
}

export interface HeldLock {
  path: string;
  release: () => void;
}

export async function acquireInstallLock(
  lockPath: string,
  deps: LockDeps = defaultLockDeps,
): Promise<HeldLock> {
  ensurePrivateDir(join(lockPath, ".."));
  const deadline = deps.now() + deps.timeoutMs;
  for (;;) {
    const held = tryCreate(lockPath);
    if (held) return held;
    const holder = readHolder(lockPath);
    if (holder === undefined) {
      // Released just now, or being written by its creator; an empty lock that stays empty was
      // left by a process killed between create and write.
      if (ageMs(lockPath, deps.now()) > EMPTY_LOCK_STALE_MS)
        removeIfStillHeldBy(lockPath, undefined);
    } else if (!deps.isAlive(holder)) {
      removeIfStillHeldBy(lockPath, holder);
      continue;
    }
    if (deps.now() > deadline) throw new LockBusyError(lockPath, holder);
    await deps.sleep(25);
  }
}

function tryCreate(lockPath: string): HeldLock | undefined {
  let fd: number;
  try {
    fd = openSync(lockPath, "wx", 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return undefined;
    throw err;
  }
  try {
    writeSync(fd, `${process.pid}\n`);
  } finally {
    closeSync(fd);
  }
  return {
    path: lockPath,
    release: () => removeIfStillHeldBy(lockPath, process.pid),
  };
}

const EMPTY_LOCK_STALE_MS = 5_000;

function ageMs(lockPath: string, now: number): number {
  try {
    return now - statSync(lockPath).mtimeMs;
  } catch {
    return 0;
  }
}

function readHolder(lockPath: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(lockPath, "utf8"), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Re-reads before unlinking so we never remove a lock someone else has just taken. */
function removeIfStillHeldBy(lockPath: string, pid: number | undefined): void {
  if (readHolder(lockPath) !== pid) return;
  try {
    unlinkSync(lockPath);
  } catch {
    // Already gone: another process cleaned up the same stale lock.
  }
}

/**
 * Locks for every target folder an operation writes into, always in the order given (the
 * project first, then the home folder), so two operations can never wait on each other.
 */
export async function acquireTargetLocks(
  roots: string[],
  env: NodeJS.ProcessEnv,
  deps: LockDeps = defaultLockDeps,
): Promise<HeldLock> {
  const held: HeldLock[] = [];
  try {
    for (const root of [...new Set(roots)]) {
      held.push(await acquireInstallLock(installLockPath(root, env), deps));
    }
  } catch (err) {
    for (const lock of held.reverse()) lock.release();
    throw err;
  }
  return {
    path: held[0]!.path,
    release: () => {
      for (const lock of [...held].reverse()) lock.release();
    },
  };
}
