/**
 * `aic uninstall cursor`. When every file AIC touched is byte-identical to what install left,
 * the pre-install snapshots are put back exactly (files AIC created are removed) and the result
 * is `restored`. Otherwise only what the receipts prove AIC owns is removed (its hooks.json
 * entries, its scripts, the rule if unedited, the MCP registration), everything foreign stays,
 * and what had drifted is listed. The SQLite database in ~/.aic is never touched.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { CONFIG_FILE_NAME, ConfigError, loadProjectConfig } from "../config/project-config.js";
import { projectAicDir } from "../shared/paths.js";
import {
  digestOf,
  FileWriter,
  isDirectory,
  readBytes,
  removeDirIfEmpty,
  removeFile,
} from "./files.js";
import { EXCLUDE_LINES } from "./git-exclude.js";
import { planHooksRemoval } from "./hooks-file.js";
import { acquireTargetLocks, defaultLockDeps, type LockDeps } from "./lock.js";
import { canonicalDigest, editMcpJson, parseMcpJson } from "./mcp-json.js";
import { writtenByAic } from "./plan.js";
import {
  loadState,
  readSnapshot,
  StateError,
  type FileRecord,
  type InstallState,
} from "./state.js";
import { pathOfKey, resolveTargets, type InstallTargets } from "./targets.js";
import { homedir } from "node:os";

export interface UninstallOptions {
  projectRoot: string;
  user?: boolean;
  /** Keep aic.config.json and .aic/ (logs, station); only the install receipts go. */
  keepProjectArtifacts?: boolean;
  /** Uninstall even when aic.config.json says devMode: true. */
  force?: boolean;
  /**
   * `aic unwear`: restore the snapshots only when every file is exactly as install left it;
   * otherwise change nothing, say what differs and keep the snapshots.
   */
  exactOnly?: boolean;
}

export interface UninstallDeps {
  env: NodeJS.ProcessEnv;
  home: string;
  lock: LockDeps;
  writer: FileWriter;
}

export function defaultUninstallDeps(overrides: Partial<UninstallDeps> = {}): UninstallDeps {
  return {
    env: process.env,
    home: homedir(),
    lock: defaultLockDeps,
    writer: new FileWriter(),
    ...overrides,
  };
}

export type UninstallStatus = "restored" | "removed" | "not-installed" | "skipped" | "refused";

export interface UninstallResult {
  status: UninstallStatus;
  notes: string[];
  /** Files that changed since install, and what was kept because of it. */
  drifted: string[];
  refusals: string[];
}

export async function uninstallCursor(
  opts: UninstallOptions,
  deps: UninstallDeps = defaultUninstallDeps(),
): Promise<UninstallResult> {
  const result: UninstallResult = { status: "removed", notes: [], drifted: [], refusals: [] };
  if (!opts.user && !isDirectory(opts.projectRoot)) {
    return {
      ...result,
      status: "refused",
      refusals: [`the project folder ${opts.projectRoot} does not exist`],
    };
  }
  const targets = resolveTargets({ ...opts, env: deps.env, home: deps.home });
  if (!opts.user && !opts.force) {
    const skip = devModeReason(targets.root);
    if (skip) return { ...result, status: "skipped", refusals: [skip] };
  }
  // The state may name ~/.cursor/mcp.json (--global-mcp), shared with --user installs.
  const lock = await acquireTargetLocks([targets.root, deps.home], deps.env, deps.lock);
  try {
    let state: InstallState | undefined;
    try {
      state = loadState(targets.stateDir);
    } catch (err) {
      if (err instanceof StateError)
        return { ...result, status: "refused", refusals: [err.message] };
      throw err;
    }
    if (!state) return { ...result, status: "not-installed" };

    const keepExclude = (key: string) =>
      opts.keepProjectArtifacts === true && state.files[key]?.role === "exclude";
    const files: TrackedFile[] = Object.entries(state.files)
      .filter(([key]) => !keepExclude(key) && state.snapshots[key]) // no snapshot: never changed
      .map(([key, record]) => {
        const path = pathOfKey(targets.root, key);
        return { key, record, path, current: readBytes(path) };
      });
    let restores: Map<string, Buffer | null>;
    try {
      restores = snapshotsToRestore(state, files, targets.stateDir);
    } catch (err) {
      if (err instanceof StateError)
        return { ...result, status: "refused", refusals: [err.message] };
      throw err;
    }
    const exact = restores.size === files.length;
    if (opts.exactOnly && !exact) {
      return { ...result, status: "refused", refusals: unwearRefusal(state, files, restores) };
    }
    uninstallFiles(files, restores, exact, state, targets, deps.writer, result);
    for (const key of [...state.createdDirs].sort((a, b) => b.length - a.length)) {
      removeDirIfEmpty(pathOfKey(targets.root, key));
    }
    result.notes.push(...removeArtifacts(targets, opts.keepProjectArtifacts ?? false));
    result.status = exact ? "restored" : "removed";
    return result;
  } finally {
    lock.release();
  }
}

interface TrackedFile {
  key: string;
  record: FileRecord;
  path: string;
  /** The file's bytes when the uninstall started (read once, under the lock). */
  current: Buffer | null;
}

/** The snapshot bytes of every file that can go back, all read (and verified) before any write. */
function snapshotsToRestore(
  state: InstallState,
  files: TrackedFile[],
  stateDir: string,
): Map<string, Buffer | null> {
  return new Map(
    files
      .filter((f) => restorable(state, f.key, f.record, f.current))
      .map((f) => [f.key, readSnapshot(stateDir, state.snapshots[f.key]!)]),
  );
}

function unwearRefusal(
  state: InstallState,
  files: TrackedFile[],
  restores: Map<string, Buffer | null>,
): string[] {
  const differ = files
    .filter((f) => !restores.has(f.key))
    .map((f) =>
      state.snapshots[f.key]!.stale
        ? `${f.key} was edited between two installs, so its snapshot is no longer the whole story`
        : `${f.key} changed since install`,
    );
  return [
    ...differ,
    "nothing was restored and the snapshots are kept: undo those changes, or run " +
      "`aic uninstall cursor` to remove only AIC's parts",
  ];
}

/** Restore what can go back; from the rest take out only AIC's parts. */
function uninstallFiles(
  files: TrackedFile[],
  restores: Map<string, Buffer | null>,
  exact: boolean,
  state: InstallState,
  targets: InstallTargets,
  writer: FileWriter,
  result: UninstallResult,
): void {
  // hooks.json first: when AIC's entries must stay in it, the scripts they run stay too.
  const ordered = [...files].sort(
    (a, b) => Number(b.record.role === "hooks") - Number(a.record.role === "hooks"),
  );
  let hooksStillRunScripts = false;
  for (const file of ordered) {
    const { key, record, path, current: now } = file;
    if (record.role === "script" && hooksStillRunScripts) {
      result.drifted.push(`kept ${key}: AIC's entries in hooks.json still run it`);
      continue;
    }
    if (!restores.has(key)) {
      const cleaned = removeOwnedParts(file, state, targets, writer, result);
      if (record.role === "hooks" && !cleaned) hooksStillRunScripts = true;
      continue;
    }
    const original = restores.get(key)!;
    if (original === null) {
      if (now !== null) writer.remove(path);
    } else if (now === null || !now.equals(original)) {
      writer.write(path, original);
    }
    if (!exact) result.notes.push(`${original === null ? "removed" : "restored"} ${key}`);
  }
}

/**
 * Can the snapshot go back without losing anything? Yes when the file still holds what AIC
 * produced and the user did not edit it between installs, or already holds the snapshot (a rerun
 * after an interrupted uninstall).
 */
function restorable(
  state: InstallState,
  key: string,
  record: FileRecord,
  current: Buffer | null,
): boolean {
  const snap = state.snapshots[key];
  if (!snap || snap.stale) return false;
  return writtenByAic(record, current) || digestOf(current) === snap.digest;
}

function devModeReason(root: string): string | undefined {
  try {
    if (!loadProjectConfig(root).config.devMode) return undefined;
    return (
      `${CONFIG_FILE_NAME} has devMode: true (AIC is being developed in this project), so ` +
      `uninstall is skipped: rerun with --force to uninstall anyway`
    );
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return `${err.message}; cannot tell whether devMode is on, so uninstall is skipped (--force overrides)`;
  }
}

/**
 * The drift path: take out only what the receipts prove is AIC's. False when AIC's hooks.json
 * entries had to stay (unprovable), so the caller keeps the scripts they run.
 */
function removeOwnedParts(
  { key, record, path, current }: TrackedFile,
  state: InstallState,
  targets: InstallTargets,
  writer: FileWriter,
  result: UninstallResult,
): boolean {
  if (current === null) return true;
  switch (record.role) {
    case "script":
    case "rule":
      if (writtenByAic(record, current)) {
        writer.remove(path);
        result.notes.push(`removed ${key}`);
      } else {
        result.drifted.push(`kept ${key}: edited since AIC wrote it`);
      }
      return true;
    case "hooks": {
      const removal = planHooksRemoval(current, state, targets);
      result.drifted.push(...removal.drifted.map((d) => `kept AIC's entries in ${d}`));
      if (removal.drifted.length > 0) return false;
      if (removal.after === null) {
        writer.remove(path);
        result.notes.push(`removed ${key} (AIC had created it and nothing else was left)`);
      } else if (!removal.after.equals(current)) {
        writer.write(path, removal.after);
        result.notes.push(`removed AIC's entries from ${key}`);
      }
      return true;
    }
    case "mcp": {
      const parsed = parseMcpJson(current.toString("utf8"), key);
      if (typeof parsed === "string") {
        result.drifted.push(`kept ${key}: ${parsed}`);
        return true;
      }
      if (parsed.entry === undefined) return true;
      const digest = canonicalDigest(parsed.entry);
      if (digest === state.mcpEntry || digest === state.pendingMcpEntry) {
        writer.write(path, Buffer.from(editMcpJson(parsed.text, undefined), "utf8"));
        result.notes.push(`removed the aic MCP server from ${key}`);
      } else {
        result.drifted.push(`kept the "aic" MCP server in ${key}: its configuration was edited`);
      }
      return true;
    }
    case "exclude": {
      const lines = current.toString("utf8").split("\n");
      const removed: string[] = [];
      for (const { line } of EXCLUDE_LINES) {
        const at = lines.lastIndexOf(line);
        if (at < 0) continue;
        lines.splice(at, 1);
        removed.push(line);
      }
      if (removed.length > 0) {
        writer.write(path, Buffer.from(lines.join("\n"), "utf8"));
        result.notes.push(`removed ${removed.join(" and ")} from ${key}`);
      }
      return true;
    }
  }
}

/**
 * The receipts always go (they describe an installation that no longer exists, and would make
 * a later install see conflicts). The project's `.aic/` and aic.config.json go unless kept.
 */
function removeArtifacts(targets: InstallTargets, keep: boolean): string[] {
  rmSync(targets.stateDir, { recursive: true, force: true });
  if (targets.scope !== "project" || keep) return [];
  rmSync(projectAicDir(targets.root), { recursive: true, force: true });
  const config = join(targets.root, CONFIG_FILE_NAME);
  if (readBytes(config) === null) return [];
  removeFile(config);
  return [`removed ${CONFIG_FILE_NAME} (--keep-project-artifacts keeps it)`];
}
