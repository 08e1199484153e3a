/**
 * Every path an install touches, for its scope. Project scope writes into `<project>/.cursor/`
 * and keeps its receipts in `<project>/.aic/install/`; user scope (`--user`) writes into
 * `~/.cursor/` and keeps its receipts in `~/.aic/install/user/` (AIC_HOME respected).
 */
import { homedir } from "node:os";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { aicHome, projectAicDir } from "../shared/paths.js";

export type InstallScope = "project" | "user";

export interface InstallTargets {
  scope: InstallScope;
  /** The folder whose `.cursor/` is written: the project, or the home folder with --user. */
  root: string;
  hooksJson: string;
  hooksDir: string;
  /** Absent with --user: Cursor reads rules per project only. */
  ruleFile?: string;
  mcpJson: string;
  /** Receipts, snapshots and the install state. */
  stateDir: string;
}

export interface TargetOptions {
  projectRoot: string;
  user?: boolean;
  globalMcp?: boolean;
  env?: NodeJS.ProcessEnv;
  home?: string;
}

export function resolveTargets(opts: TargetOptions): InstallTargets {
  const home = opts.home ?? homedir();
  const globalMcpJson = join(home, ".cursor", "mcp.json");
  if (opts.user) {
    return {
      scope: "user",
      root: home,
      hooksJson: join(home, ".cursor", "hooks.json"),
      hooksDir: join(home, ".cursor", "hooks"),
      mcpJson: globalMcpJson,
      stateDir: join(aicHome(opts.env), "install", "user"),
    };
  }
  const root = resolve(opts.projectRoot);
  return {
    scope: "project",
    root,
    hooksJson: join(root, ".cursor", "hooks.json"),
    hooksDir: join(root, ".cursor", "hooks"),
    ruleFile: join(root, ".cursor", "rules", "AIC.mdc"),
    mcpJson: opts.globalMcp ? globalMcpJson : join(root, ".cursor", "mcp.json"),
    stateDir: join(projectAicDir(root), "install"),
  };
}

/** How a path is recorded and shown: relative inside the root (so a moved project still works). */
export function recordKey(root: string, path: string): string {
  const rel = relative(root, path);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel.split(sep).join("/") : path;
}

export function pathOfKey(root: string, key: string): string {
  return isAbsolute(key) ? key : join(root, ...key.split("/"));
}
