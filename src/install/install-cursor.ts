/**
 * `aic install cursor`: deploys the hook scripts, merges AIC's entries into hooks.json, installs
 * the trigger rule, registers the MCP server and keeps `.aic/` out of git. Everything is planned
 * first (any refusal writes nothing), then applied under a lock with snapshots and a journal.
 * The MCP server's editor bootstrap calls `installCursor` in-process.
 */
import { homedir } from "node:os";
import {
  HOOK_REGISTRATIONS,
  HOOK_SCRIPTS,
  type HookRegistration,
} from "../integrations/cursor/manifest.js";
import { applyPlan, nextState, settleJournal, type Commit } from "./apply.js";
import { FileWriter, isDirectory } from "./files.js";
import { gitExcludeFile, planGitExclude } from "./git-exclude.js";
import { planHooksInstall } from "./hooks-file.js";
import { acquireTargetLocks, defaultLockDeps, type LockDeps } from "./lock.js";
import { aicMcpEntry, planMcpRegistration } from "./mcp-json.js";
import { aicPackageRoot, aicVersion, builtHooksDir, cliEntry } from "./package-info.js";
import { Plan } from "./plan.js";
import { planRule } from "./rule.js";
import { planScripts } from "./scripts.js";
import { emptyState, loadState, saveState, StateError, type InstallState } from "./state.js";
import { resolveTargets, type InstallTargets } from "./targets.js";

export interface InstallOptions {
  projectRoot: string;
  /** Install into ~/.cursor (hooks with absolute commands) instead of the project. */
  user?: boolean;
  /** Register the MCP server in ~/.cursor/mcp.json instead of the project's. */
  globalMcp?: boolean;
  /** Replace a user-edited rule, foreign scripts in AIC's names, or a foreign "aic" MCP server. */
  force?: boolean;
  /** Plan and report, write nothing. */
  dryRun?: boolean;
  /** `aic wear`: refuse outside a git work tree (the snapshots are kept out of git through it). */
  requireGit?: boolean;
}

export interface InstallDeps {
  env: NodeJS.ProcessEnv;
  home: string;
  packageRoot: string;
  aicVersion: string;
  scripts: readonly string[];
  registrations: readonly HookRegistration[];
  lock: LockDeps;
  writer: FileWriter;
}

export function defaultInstallDeps(overrides: Partial<InstallDeps> = {}): InstallDeps {
  const packageRoot = overrides.packageRoot ?? aicPackageRoot();
  return {
    env: process.env,
    home: homedir(),
    packageRoot,
    aicVersion: overrides.aicVersion ?? aicVersion(packageRoot),
    scripts: HOOK_SCRIPTS,
    registrations: HOOK_REGISTRATIONS,
    lock: defaultLockDeps,
    writer: new FileWriter(),
    ...overrides,
  };
}

export type InstallStatus = "installed" | "would-install" | "unchanged" | "refused";

export interface InstallResult {
  status: InstallStatus;
  targets?: InstallTargets;
  /** What changed. */
  notes: string[];
  /** What was left alone on purpose, with the fix. */
  kept: string[];
  /** Why nothing was written. */
  refusals: string[];
}

export async function installCursor(
  opts: InstallOptions,
  deps: InstallDeps = defaultInstallDeps(),
): Promise<InstallResult> {
  if (!opts.user && !isDirectory(opts.projectRoot)) {
    return refused([
      `the project folder ${opts.projectRoot} does not exist (or is not a folder): pass an ` +
        `existing folder with --project, or run the command inside the project`,
    ]);
  }
  if (opts.requireGit && !opts.user && gitExcludeFile(opts.projectRoot) === undefined) {
    return refused([
      `${opts.projectRoot} is not inside a git work tree (or git is not installed): wear keeps its ` +
        "snapshots out of git through .git/info/exclude; use `aic install cursor` outside git",
    ]);
  }
  const targets = resolveTargets({ ...opts, env: deps.env, home: deps.home });
  // ~/.cursor/mcp.json is shared with --user installs: lock the home folder too.
  const roots = opts.globalMcp ? [targets.root, deps.home] : [targets.root];
  const lock = await acquireTargetLocks(roots, deps.env, deps.lock);
  try {
    let state: InstallState;
    try {
      const loaded = loadState(targets.stateDir);
      state = loaded ? settleJournal(loaded, targets) : emptyState(deps.aicVersion, targets.scope);
    } catch (err) {
      if (err instanceof StateError) return refused([err.message], targets);
      throw err;
    }
    const { plan, commit } = planInstall(targets, state, deps, opts.force ?? false);
    if (plan.refusals.length > 0) return refused(plan.refusals, targets);
    if (opts.dryRun) {
      const status = plan.changes.length > 0 ? "would-install" : "unchanged";
      return { status, targets, notes: plan.notes, kept: plan.kept, refusals: [] };
    }
    if (plan.changes.length === 0) {
      // Receipts may still be refreshed (legitimate foreign edits change the remainder digest).
      saveState(targets.stateDir, nextState(state, plan, commit));
      return { status: "unchanged", targets, notes: [], kept: plan.kept, refusals: [] };
    }
    applyPlan(targets, state, plan, commit, deps.writer);
    return { status: "installed", targets, notes: plan.notes, kept: plan.kept, refusals: [] };
  } finally {
    lock.release();
  }
}

/** Every file's plan, in write order: scripts before the hooks.json that runs them. */
function planInstall(
  targets: InstallTargets,
  state: InstallState,
  deps: InstallDeps,
  force: boolean,
): { plan: Plan; commit: Commit } {
  const plan = new Plan();
  const bundles = {
    scripts: deps.scripts,
    bundleDir: builtHooksDir(deps.packageRoot),
    packageRoot: deps.packageRoot,
  };
  planScripts(plan, targets, state, bundles, force);
  const hooks = planHooksInstall(plan, targets, state, deps.registrations);
  planRule(plan, targets, state, deps.aicVersion, force);
  const mcpEntry = aicMcpEntry(cliEntry(deps.packageRoot));
  const mcp = planMcpRegistration(plan, targets, state, mcpEntry, force);
  planGitExclude(plan, targets);
  const commit = {
    hooksReceipts: hooks.receipts,
    mcpEntry: mcp.entryDigest,
    aicVersion: deps.aicVersion,
  };
  return { plan, commit };
}

function refused(refusals: string[], targets?: InstallTargets): InstallResult {
  return { status: "refused", targets, notes: [], kept: [], refusals };
}
