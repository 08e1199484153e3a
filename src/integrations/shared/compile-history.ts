/**
 * The intents compiled in one conversation, with their top files: what the pre-compact station
 * lists so the agent can resume after Cursor compacts the chat. Append-only, like edited files.
 */
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { PRIVATE_FILE_MODE } from "../../shared/paths.js";
import { ensureStateDir, readTextIfExists } from "./hook-state.js";

export const COMPILES = "compiles.jsonl";

export interface CompileRecord {
  time: string;
  intent: string;
  files: string[];
  /** Which hook saw it: session_start, tool (the agent's own aic_compile), subagent_start. */
  source: string;
}

export function recordCompile(convDir: string, rec: Omit<CompileRecord, "time">, now = new Date()) {
  ensureStateDir(convDir);
  const line: CompileRecord = { time: now.toISOString(), ...rec, intent: rec.intent.slice(0, 500) };
  appendFileSync(join(convDir, COMPILES), JSON.stringify(line) + "\n", { mode: PRIVATE_FILE_MODE });
}

/** The newest `limit` records, newest first. */
export function recentCompiles(convDir: string, limit = 5): CompileRecord[] {
  const text = readTextIfExists(join(convDir, COMPILES));
  if (!text) return [];
  const out: CompileRecord[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const r = JSON.parse(line) as CompileRecord;
      if (typeof r.intent === "string")
        out.push({ ...r, files: Array.isArray(r.files) ? r.files : [] });
    } catch {
      // Skip a torn line.
    }
  }
  return out.slice(-limit).reverse();
}
