/**
 * The hook health log: hooks never fail Cursor because of their own errors, but every error they
 * swallow leaves exactly one JSON line in `~/.aic/hook-health.jsonl` (`$AIC_HOME` when set).
 * `aic doctor` prints the last lines. The file is rotated to `.1` past 1 MiB.
 */
import { appendFileSync, renameSync, statSync } from "node:fs";
import { join } from "node:path";
import { aicHome, ensurePrivateDir, PRIVATE_FILE_MODE } from "../../shared/paths.js";

export const HEALTH_LOG = "hook-health.jsonl";
const ROTATE_BYTES = 1024 * 1024;

export function healthLogPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(aicHome(env), HEALTH_LOG);
}

export interface HealthRecord {
  hook: string;
  /** What the hook was doing, e.g. "read stdin", "run eslint". */
  stage: string;
  error: unknown;
  projectRoot?: string;
  conversationId?: string;
}

function describe(err: unknown): string {
  if (err instanceof Error) return err.message;
  return typeof err === "string" ? err : JSON.stringify(err);
}

/** Never throws: a broken health log must not break the hook either. */
export function recordHookError(rec: HealthRecord, env: NodeJS.ProcessEnv = process.env): void {
  try {
    const file = healthLogPath(env);
    ensurePrivateDir(aicHome(env));
    try {
      if (statSync(file).size > ROTATE_BYTES) renameSync(file, `${file}.1`);
    } catch {
      // No log yet.
    }
    const line = {
      time: new Date().toISOString(),
      hook: rec.hook,
      stage: rec.stage,
      message: describe(rec.error).slice(0, 2000),
      ...(rec.projectRoot ? { projectRoot: rec.projectRoot } : {}),
      ...(rec.conversationId ? { conversationId: rec.conversationId } : {}),
    };
    appendFileSync(file, JSON.stringify(line) + "\n", { mode: PRIVATE_FILE_MODE });
  } catch {
    // Nowhere left to report to.
  }
}
