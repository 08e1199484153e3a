/**
 * The install state: what AIC wrote, the receipts that prove it, and the pre-install snapshots.
 * Stored as `<stateDir>/state.json` (0600 in a 0700 folder). It doubles as a write-ahead
 * journal: before touching any file the installer records what it is about to produce
 * (`pending*`), so a process killed midway leaves a state that still proves ownership of every
 * file, whether that file is old or new.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ensurePrivateDir, PRIVATE_FILE_MODE } from "../shared/paths.js";
import { ABSENT, atomicWriteFile, readBytes, sha256 } from "./files.js";
import type { InstallScope } from "./targets.js";

export type FileRole = "hooks" | "script" | "rule" | "mcp" | "exclude";

export interface FileRecord {
  role: FileRole;
  /** Digest of the bytes the last completed install left (ABSENT when it removed the file). */
  produced: string;
  /** Set while an install is in flight: the digest it is about to leave. */
  pendingProduced?: string;
}

export interface SnapshotRecord {
  existed: boolean;
  digest: string;
  /** File name under `<stateDir>/snapshots/`; absent when the file did not exist. */
  blob?: string;
  /**
   * The user changed the file after AIC had written it, so the snapshot no longer holds
   * everything the user wants: uninstall removes AIC's parts instead of restoring it.
   */
  stale?: boolean;
}

export interface InstallState {
  format: 1;
  aicVersion: string;
  scope: InstallScope;
  /** Keyed by path relative to the root (absolute for files outside it, like ~/.cursor/mcp.json). */
  files: Record<string, FileRecord>;
  snapshots: Record<string, SnapshotRecord>;
  /** Folders the installer created (keys), removed again by uninstall when empty. */
  createdDirs: string[];
  /** The ownership library's receipts for AIC's hooks.json entries. */
  hooksReceipts?: unknown;
  pendingHooksReceipts?: unknown;
  /** Digests of the `mcpServers.aic` values AIC wrote. */
  mcpEntry?: string;
  pendingMcpEntry?: string;
}

const STATE_FILE = "state.json";
const SNAPSHOT_DIR = "snapshots";

export function emptyState(aicVersion: string, scope: InstallScope): InstallState {
  return { format: 1, aicVersion, scope, files: {}, snapshots: {}, createdDirs: [] };
}

export function statePath(stateDir: string): string {
  return join(stateDir, STATE_FILE);
}

export class StateError extends Error {
  override name = "StateError";
}

export function loadState(stateDir: string): InstallState | undefined {
  const path = statePath(stateDir);
  if (!existsSync(path)) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new StateError(
      `${path} is not valid JSON (${(err as Error).message}); AIC cannot prove which entries it ` +
        `owns. Restore the file from a backup, or move it away and reinstall (foreign-looking ` +
        `AIC entries will then be reported).`,
    );
  }
  const state = raw as Partial<InstallState>;
  if (
    state?.format !== 1 ||
    typeof state.files !== "object" ||
    typeof state.snapshots !== "object"
  ) {
    throw new StateError(`${path} has an unknown format; it was written by another AIC version`);
  }
  return { createdDirs: [], ...state } as InstallState;
}

/** A fixed key order, so the same state always serializes to the same bytes. */
function serializeState(state: InstallState): Buffer {
  const ordered: InstallState = {
    format: state.format,
    aicVersion: state.aicVersion,
    scope: state.scope,
    files: state.files,
    snapshots: state.snapshots,
    createdDirs: state.createdDirs,
    hooksReceipts: state.hooksReceipts,
    pendingHooksReceipts: state.pendingHooksReceipts,
    mcpEntry: state.mcpEntry,
    pendingMcpEntry: state.pendingMcpEntry,
  };
  return Buffer.from(JSON.stringify(ordered, null, 2) + "\n", "utf8");
}

/** Writes only when the bytes differ, so an idempotent run leaves the mtime alone too. */
export function saveState(stateDir: string, state: InstallState): boolean {
  ensurePrivateDir(stateDir);
  const bytes = serializeState(state);
  const path = statePath(stateDir);
  const current = readBytes(path);
  if (current && current.equals(bytes)) return false;
  atomicWriteFile(path, bytes, PRIVATE_FILE_MODE);
  return true;
}

/** Store the original bytes of a file (or the fact it did not exist) before AIC first changes it. */
export function takeSnapshot(stateDir: string, key: string, bytes: Buffer | null): SnapshotRecord {
  if (bytes === null) return { existed: false, digest: ABSENT };
  const dir = ensurePrivateDir(join(stateDir, SNAPSHOT_DIR));
  const blob = `${sha256(key).slice(0, 16)}.bin`;
  atomicWriteFile(join(dir, blob), bytes, PRIVATE_FILE_MODE);
  return { existed: true, digest: sha256(bytes), blob };
}

/** The snapshot's bytes, verified against its digest (null when the file did not exist). */
export function readSnapshot(stateDir: string, snap: SnapshotRecord): Buffer | null {
  if (!snap.existed || !snap.blob) return null;
  const bytes = readBytes(join(stateDir, SNAPSHOT_DIR, snap.blob));
  if (bytes === null || sha256(bytes) !== snap.digest) {
    throw new StateError(
      `the pre-install snapshot ${snap.blob} in ${join(stateDir, SNAPSHOT_DIR)} is missing or ` +
        `damaged, so it cannot be restored`,
    );
  }
  return bytes;
}
