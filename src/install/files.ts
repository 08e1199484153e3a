/**
 * The installer's only way to touch the user's files: whole-file reads, atomic replacement
 * (temp file in the same folder, fsync, rename) and removal. Every change goes through
 * `FileWriter`, which also implements the test-only crash hook AIC_INSTALL_CRASH_AFTER.
 */
import { createHash, randomBytes } from "node:crypto";
import {
  closeSync,
  fchmodSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";

/** The file's bytes, or null when it does not exist. Other errors (EACCES, EISDIR) propagate. */
export function readBytes(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

export function sha256(bytes: Buffer | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** A content digest where absence is a value too, so "was absent" can be compared like bytes. */
export const ABSENT = "absent";
export function digestOf(bytes: Buffer | null): string {
  return bytes === null ? ABSENT : sha256(bytes);
}

export function sameBytes(a: Buffer | null, b: Buffer | null): boolean {
  if (a === null || b === null) return a === b;
  return a.equals(b);
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Replace `path` with `bytes` so a reader (or a crash) only ever sees the old or the new file.
 * An existing file keeps its permission bits; a new one gets `mode`.
 */
export function atomicWriteFile(linkOrPath: string, bytes: Buffer, mode = 0o644): void {
  // A symlinked file (dotfiles managers) is written where it points, so the link survives.
  const path = symlinkTarget(linkOrPath);
  const existingMode = modeOf(path);
  const tmp = join(
    dirname(path),
    `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`,
  );
  const fd = openSync(tmp, "wx", 0o600);
  try {
    fchmodSync(fd, existingMode ?? mode);
    writeSync(fd, bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, path);
  } catch (err) {
    unlinkSync(tmp);
    throw err;
  }
}

function symlinkTarget(path: string): string {
  try {
    return lstatSync(path).isSymbolicLink() ? realpathSync(path) : path;
  } catch {
    return path;
  }
}

function modeOf(path: string): number | undefined {
  try {
    return statSync(path).mode & 0o7777;
  } catch {
    return undefined;
  }
}

export function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
}

/** Remove a folder only when it is empty (the user may have put files in it). */
export function removeDirIfEmpty(path: string): boolean {
  try {
    rmdirSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Create the folders above `path`; returns the ones that did not exist, outermost first. */
export function ensureParentDirs(path: string): string[] {
  const missing: string[] = [];
  for (let dir = dirname(path); !isDirectory(dir); dir = dirname(dir)) {
    missing.unshift(dir);
    if (dirname(dir) === dir) break;
  }
  for (const dir of missing) mkdirSync(dir);
  return missing;
}

/**
 * Counts the changes made to user-visible files. AIC_INSTALL_CRASH_AFTER=<n> is a TEST-ONLY hook:
 * after the n-th change the process kills itself with SIGKILL (no cleanup, lock left behind), so
 * tests can prove that a process killed between two writes leaves every file old or new and that
 * a rerun completes the job.
 */
export class FileWriter {
  private count = 0;
  constructor(private readonly crashAfter = parseCrashAfter(process.env.AIC_INSTALL_CRASH_AFTER)) {}

  write(path: string, bytes: Buffer, mode?: number): void {
    atomicWriteFile(path, bytes, mode);
    this.tick();
  }

  remove(path: string): void {
    removeFile(path);
    this.tick();
  }

  private tick(): void {
    this.count += 1;
    if (this.crashAfter !== undefined && this.count >= this.crashAfter) {
      process.kill(process.pid, "SIGKILL");
    }
  }
}

function parseCrashAfter(raw: string | undefined): number | undefined {
  if (!raw) return undefined;
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}
