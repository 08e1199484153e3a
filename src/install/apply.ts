/**
 * Carries out a plan with the ordering that makes a crash harmless:
 *   1. snapshot the original bytes of every file about to change for the first time;
 *   2. journal the state (what each file is about to become) before touching anything;
 *   3. write each file atomically, new content first and removals last, so hooks.json never
 *      names a script that is not there;
 *   4. commit the final state.
 * A process killed anywhere leaves each file old or new, with a state that proves either.
 */
import { digestOf, ensureParentDirs, FileWriter, isDirectory, readBytes } from "./files.js";
import type { FileChange, Plan } from "./plan.js";
import { saveState, takeSnapshot, type InstallState } from "./state.js";
import { pathOfKey, recordKey, type InstallTargets } from "./targets.js";
import { dirname } from "node:path";

export interface Commit {
  hooksReceipts?: unknown;
  mcpEntry?: string;
  aicVersion: string;
}

/**
 * After an install was killed midway, each journaled file holds either its old or its new bytes:
 * record whichever it is as produced, so planners that leave a file alone (an exclude line that
 * is already there, a kept rule) still leave a state that proves what is on disk.
 */
export function settleJournal(state: InstallState, targets: InstallTargets): InstallState {
  const settled = structuredClone(state);
  for (const [key, record] of Object.entries(settled.files)) {
    if (record.pendingProduced === undefined) continue;
    if (digestOf(readBytes(pathOfKey(targets.root, key))) === record.pendingProduced) {
      record.produced = record.pendingProduced;
    }
    delete record.pendingProduced;
  }
  return settled;
}

/** The state after `plan` has been applied. */
export function nextState(state: InstallState, plan: Plan, commit: Commit): InstallState {
  const files = structuredClone(state.files);
  const snapshots = structuredClone(state.snapshots);
  for (const key of plan.untracked) {
    delete files[key];
    delete snapshots[key];
  }
  for (const [key, t] of plan.tracked) files[key] = { role: t.role, produced: t.digest };
  const next: InstallState = {
    ...state,
    aicVersion: commit.aicVersion,
    files: sortKeys(files),
    snapshots: sortKeys(snapshots),
    hooksReceipts: commit.hooksReceipts ?? state.hooksReceipts,
    mcpEntry: commit.mcpEntry ?? state.mcpEntry,
  };
  delete next.pendingHooksReceipts;
  delete next.pendingMcpEntry;
  for (const record of Object.values(next.files)) delete record.pendingProduced;
  return next;
}

function sortKeys<T>(obj: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(obj).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Removals after writes; otherwise the planners' order (scripts before hooks.json). */
function ordered(changes: FileChange[]): FileChange[] {
  return [...changes.filter((c) => c.after !== null), ...changes.filter((c) => c.after === null)];
}

export function applyPlan(
  targets: InstallTargets,
  state: InstallState,
  plan: Plan,
  commit: Commit,
  writer: FileWriter,
): InstallState {
  const journal: InstallState = structuredClone(state);
  for (const change of plan.changes) {
    const record = journal.files[change.key];
    if (!journal.snapshots[change.key]) {
      journal.snapshots[change.key] = takeSnapshot(targets.stateDir, change.key, change.before);
    } else if (
      record &&
      digestOf(change.before) !== record.produced &&
      digestOf(change.before) !== record.pendingProduced
    ) {
      // Edited by the user since AIC wrote it: restoring the old snapshot would lose that edit.
      journal.snapshots[change.key]!.stale = true;
    }
    journal.files[change.key] = {
      role: change.role,
      produced: record?.produced ?? digestOf(change.before),
      pendingProduced: digestOf(change.after),
    };
    for (let dir = dirname(change.path); !isDirectory(dir); dir = dirname(dir)) {
      const key = recordKey(targets.root, dir);
      if (!journal.createdDirs.includes(key)) journal.createdDirs.push(key);
    }
  }
  journal.pendingHooksReceipts = commit.hooksReceipts;
  journal.pendingMcpEntry = commit.mcpEntry;
  saveState(targets.stateDir, journal);

  for (const change of ordered(plan.changes)) {
    if (change.after === null) {
      writer.remove(change.path);
    } else {
      ensureParentDirs(change.path);
      writer.write(change.path, change.after, change.mode);
    }
  }
  const final = nextState(journal, plan, commit);
  saveState(targets.stateDir, final);
  return final;
}
