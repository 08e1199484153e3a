/**
 * What one install or uninstall intends to do, built by the per-file planners before anything is
 * written. A plan with refusals is never applied, which is how a refusal writes nothing.
 */
import { digestOf, sameBytes } from "./files.js";
import type { FileRecord, FileRole } from "./state.js";

export interface FileChange {
  key: string;
  path: string;
  role: FileRole;
  before: Buffer | null;
  after: Buffer | null;
  /** Mode for a newly created file. */
  mode?: number;
}

export class Plan {
  /** Files whose bytes change. */
  readonly changes: FileChange[] = [];
  /** Files AIC tracks after this run (changed or not), with the digest they will have. */
  readonly tracked = new Map<string, { role: FileRole; digest: string }>();
  /** Records to forget (a file AIC no longer owns or that is gone). */
  readonly untracked = new Set<string>();
  /** What was done, for the report. */
  readonly notes: string[] = [];
  /** Things left alone on purpose, with the reason and the fix. */
  readonly kept: string[] = [];
  /** Reasons not to write anything at all. */
  readonly refusals: string[] = [];

  /** Track `path` as AIC's, producing `after` (a no-op when the bytes are already there). */
  own(change: FileChange, note?: string): void {
    this.tracked.set(change.key, { role: change.role, digest: digestOf(change.after) });
    this.untracked.delete(change.key);
    if (!sameBytes(change.before, change.after)) {
      this.changes.push(change);
      if (note) this.notes.push(note);
    }
  }

  /** Forget a record: the file is no longer AIC's (its bytes stay as they are). */
  release(key: string): void {
    this.tracked.delete(key);
    this.untracked.add(key);
  }
}

/** Did AIC write these bytes (the last completed install, or the one that was killed midway)? */
export function writtenByAic(record: FileRecord | undefined, bytes: Buffer | null): boolean {
  if (!record) return false;
  const digest = digestOf(bytes);
  return digest === record.produced || digest === record.pendingProduced;
}
