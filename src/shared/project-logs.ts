/**
 * The per-project files under `<root>/.aic/` (folder 0700, files 0600) that the MCP server and the
 * hooks share. Every prompt is logged, whatever it contains; titles are its first 200 characters.
 */
import { chmodSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { appendJsonl, pruneJsonl } from "./jsonl.js";
import { ensurePrivateDir, PRIVATE_FILE_MODE, projectAicDir } from "./paths.js";

export const PROMPT_LOG = "prompt-log.jsonl";
export const SESSION_LOG = "session-log.jsonl";
export const SESSION_MODELS_LOG = "session-models.jsonl";
export const LAST_COMPILED_PROMPT = "last-compiled-prompt.txt";
export const PRUNED_LOGS = [PROMPT_LOG, SESSION_LOG, SESSION_MODELS_LOG] as const;

export function projectFile(projectRoot: string, name: string): string {
  return join(projectAicDir(projectRoot), name);
}

export function promptTitle(prompt: string): string {
  return Array.from(prompt).slice(0, 200).join("");
}

export interface PromptLogEntry {
  conversationId?: string;
  generationId?: string;
  prompt: string;
  /** The model the prompt was sent to, when the editor says. */
  model?: string;
  source?: string;
}

export function appendPromptLog(
  projectRoot: string,
  entry: PromptLogEntry,
  now = new Date(),
): void {
  appendJsonl(projectFile(projectRoot, PROMPT_LOG), {
    time: now.toISOString(),
    title: promptTitle(entry.prompt),
    ...entry,
  });
}

export function appendSessionLog(
  projectRoot: string,
  record: Record<string, unknown>,
  now = new Date(),
): void {
  appendJsonl(projectFile(projectRoot, SESSION_LOG), { time: now.toISOString(), ...record });
}

export function appendSessionModel(
  projectRoot: string,
  record: { conversationId?: string; model: string; source?: string },
  now = new Date(),
): void {
  appendJsonl(projectFile(projectRoot, SESSION_MODELS_LOG), { time: now.toISOString(), ...record });
}

/** Atomic replace so a reader never sees half a prompt. */
export function writeLastCompiledPrompt(projectRoot: string, prompt: string): string {
  const file = projectFile(projectRoot, LAST_COMPILED_PROMPT);
  ensurePrivateDir(projectAicDir(projectRoot));
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, prompt, { mode: PRIVATE_FILE_MODE });
  chmodSync(tmp, PRIVATE_FILE_MODE);
  renameSync(tmp, file);
  return file;
}

/** Prune every JSONL log of the project by age; returns lines removed per file. */
export function pruneProjectLogs(
  projectRoot: string,
  maxAgeDays: number,
  now = Date.now(),
): Record<string, number> {
  const removed: Record<string, number> = {};
  for (const name of PRUNED_LOGS)
    removed[name] = pruneJsonl(projectFile(projectRoot, name), maxAgeDays, "time", now);
  return removed;
}
