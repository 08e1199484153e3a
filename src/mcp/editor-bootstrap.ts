/**
 * Editor bootstrap: when enabled, the MCP server installs AIC's Cursor integration (hooks, rule)
 * into a project the first time it sees it, via aic_compile or the client's workspace roots,
 * once per project per process. Off by default; enabled by `editorBootstrap: true` in the
 * project's aic.config.json or AIC_EDITOR_BOOTSTRAP=1. A failure is logged, never fatal.
 *
 * The installer is injected (`install`), so this module knows nothing about Cursor.
 */
import { loadProjectConfig, type LoadedConfig } from "../config/project-config.js";

export type InstallFn = (projectRoot: string) => unknown;

/**
 * The installer run in-process when bootstrap is enabled: the same code as `aic install cursor`
 * (src/install/), loaded lazily so the server starts without it. A refusal throws, so it is logged.
 */
export const DEFAULT_INSTALL: InstallFn | undefined = async (projectRoot) =>
  (await import("../install/index.js")).installCursorOrThrow(projectRoot);

export type BootstrapOutcome = "disabled" | "already-ran" | "not-wired" | "installed" | "failed";

export interface EditorBootstrapDeps {
  install?: InstallFn;
  env?: NodeJS.ProcessEnv;
  loadConfig?: (projectRoot: string) => LoadedConfig;
  log?: (line: string) => void;
}

export interface EditorBootstrap {
  /** Run for this project unless disabled or already run in this process. */
  run(projectRoot: string): Promise<BootstrapOutcome>;
}

export function bootstrapEnabled(
  projectRoot: string,
  env: NodeJS.ProcessEnv,
  loadConfig: (projectRoot: string) => LoadedConfig,
): boolean {
  const flag = env.AIC_EDITOR_BOOTSTRAP?.trim().toLowerCase();
  if (flag === "1" || flag === "true") return true;
  try {
    return loadConfig(projectRoot).config.editorBootstrap;
  } catch {
    return false; // a broken config is reported by the compile itself
  }
}

export function createEditorBootstrap(deps: EditorBootstrapDeps = {}): EditorBootstrap {
  const install = "install" in deps ? deps.install : DEFAULT_INSTALL;
  const env = deps.env ?? process.env;
  const loadConfig = deps.loadConfig ?? loadProjectConfig;
  const log = deps.log ?? (() => {});
  // Keyed by project; the promise is stored before it settles so parallel calls run it once.
  const runs = new Map<string, Promise<BootstrapOutcome>>();

  async function runOnce(projectRoot: string): Promise<BootstrapOutcome> {
    if (!install) {
      log(
        `editor bootstrap is enabled for ${projectRoot} but no installer is wired in this build; ` +
          "run `aic install cursor --project <dir>` instead",
      );
      return "not-wired";
    }
    try {
      await install(projectRoot);
      log(`editor bootstrap: installed the Cursor integration into ${projectRoot}`);
      return "installed";
    } catch (err) {
      log(`editor bootstrap failed for ${projectRoot}: ${(err as Error).message}`);
      return "failed";
    }
  }

  return {
    async run(projectRoot) {
      if (runs.has(projectRoot)) {
        await runs.get(projectRoot);
        return "already-ran";
      }
      if (!bootstrapEnabled(projectRoot, env, loadConfig)) return "disabled";
      const run = runOnce(projectRoot);
      runs.set(projectRoot, run);
      return run;
    },
  };
}
