/**
 * On start, the server prunes each known project's JSONL logs under `.aic/` by age
 * (aic.config.json `logRetentionDays`, default 7). Missing folders and broken configs are
 * skipped with a note, never fatal.
 */
import { existsSync } from "node:fs";
import { loadProjectConfig, DEFAULT_CONFIG, type LoadedConfig } from "../config/project-config.js";
import { pruneProjectLogs } from "../shared/project-logs.js";
import { listProjects, type Db } from "../store/index.js";

export interface PruneSummary {
  projectRoot: string;
  retentionDays: number;
  removed: Record<string, number>;
}

export function pruneKnownProjectLogs(
  db: Db,
  deps: {
    loadConfig?: (root: string) => LoadedConfig;
    log?: (line: string) => void;
    nowMs?: number;
  } = {},
): PruneSummary[] {
  const loadConfig = deps.loadConfig ?? loadProjectConfig;
  const log = deps.log ?? (() => {});
  const out: PruneSummary[] = [];
  for (const { root } of listProjects(db)) {
    if (!existsSync(root)) continue;
    let retentionDays = DEFAULT_CONFIG.logRetentionDays;
    try {
      retentionDays = loadConfig(root).config.logRetentionDays;
    } catch (err) {
      log(
        `log pruning uses the default ${retentionDays} days for ${root}: ${(err as Error).message}`,
      );
    }
    try {
      const removed = pruneProjectLogs(root, retentionDays, deps.nowMs);
      out.push({ projectRoot: root, retentionDays, removed });
      const total = Object.values(removed).reduce((a, n) => a + n, 0);
      if (total > 0)
        log(`pruned ${total} log line(s) older than ${retentionDays} days in ${root}/.aic`);
    } catch (err) {
      log(`could not prune the logs of ${root}: ${(err as Error).message}`);
    }
  }
  return out;
}
