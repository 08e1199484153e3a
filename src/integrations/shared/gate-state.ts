/**
 * The compile gate's state (seed §7.3), kept private per project and conversation:
 * - the per-generation marker: an `aic_compile` call was seen in this generation;
 * - the project recency marker: when the project last compiled (opens the gate for
 *   `compileRecencyWindowSecs`, 300 s by default, across generations);
 * - the prewarmed prompt: the user's exact words, offered as the intent in a deny.
 * Only a real `aic_compile` tool call writes the markers (the gate on preToolUse, refreshed by
 * post-compile on success). A submitted prompt never does.
 */
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import {
  conversationsDir,
  ensureStateDir,
  projectStateDir,
  readTextIfExists,
  writeFileAtomic,
} from "./hook-state.js";
import { safeKey } from "./ids.js";

const NO_GENERATION = "_none";
function genFile(convDir: string, generationId: string | undefined, ext: string): string {
  return join(convDir, `gen-${generationId ? safeKey(generationId) : NO_GENERATION}.${ext}`);
}

export function savePrompt(
  convDir: string,
  generationId: string | undefined,
  prompt: string,
): void {
  ensureStateDir(convDir);
  writeFileAtomic(genFile(convDir, generationId, "prompt"), prompt);
}

export function readPrompt(convDir: string, generationId: string | undefined): string | undefined {
  const text = readTextIfExists(genFile(convDir, generationId, "prompt"));
  return text !== undefined && text.trim() !== "" ? text : undefined;
}

export function markGenerationCompiled(
  convDir: string,
  generationId: string | undefined,
  now = Date.now(),
): void {
  ensureStateDir(convDir);
  writeFileAtomic(genFile(convDir, generationId, "compiled"), new Date(now).toISOString() + "\n");
}

export function generationCompiled(convDir: string, generationId: string | undefined): boolean {
  // Without a generation id there is no per-generation proof; only recency can open the gate.
  if (!generationId) return false;
  return readTextIfExists(genFile(convDir, generationId, "compiled")) !== undefined;
}

function recencyFile(projectRoot: string, env: NodeJS.ProcessEnv): string {
  return join(projectStateDir(projectRoot, env), "recent-compile.json");
}

export function markProjectCompiled(
  projectRoot: string,
  info: { conversationId?: string; generationId?: string },
  env: NodeJS.ProcessEnv = process.env,
  now = Date.now(),
): void {
  ensureStateDir(projectStateDir(projectRoot, env));
  writeFileAtomic(recencyFile(projectRoot, env), JSON.stringify({ time: now, ...info }) + "\n");
}

/** Milliseconds since the project's last aic_compile, or undefined when none is recorded. */
export function msSinceProjectCompile(
  projectRoot: string,
  env: NodeJS.ProcessEnv = process.env,
  now = Date.now(),
): number | undefined {
  const text = readTextIfExists(recencyFile(projectRoot, env));
  if (text === undefined) return undefined;
  try {
    const time = (JSON.parse(text) as { time?: unknown }).time;
    return typeof time === "number" ? Math.max(0, now - time) : undefined;
  } catch {
    return undefined;
  }
}

/** Stale per-generation files and abandoned conversations (no sessionEnd) are removed. */
export const STALE_GENERATION_MS = 2 * 3600_000;
export const STALE_CONVERSATION_MS = 7 * 24 * 3600_000;
export const SWEEP_INTERVAL_MS = 10 * 60_000;

/**
 * Opportunistic cleanup, at most once per SWEEP_INTERVAL_MS per project. Never touches the
 * recency marker. Returns whether a sweep ran.
 */
export function sweepStaleState(
  projectRoot: string,
  env: NodeJS.ProcessEnv = process.env,
  now = Date.now(),
): boolean {
  const stamp = join(projectStateDir(projectRoot, env), "sweep.stamp");
  try {
    if (now - statSync(stamp).mtimeMs < SWEEP_INTERVAL_MS) return false;
  } catch {
    // Never swept.
  }
  ensureStateDir(projectStateDir(projectRoot, env));
  writeFileAtomic(stamp, new Date(now).toISOString() + "\n");
  const root = conversationsDir(projectRoot, env);
  let convs: string[] = [];
  try {
    convs = readdirSync(root);
  } catch {
    return true;
  }
  for (const conv of convs) {
    const dir = join(root, conv);
    let newest = 0;
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      const file = join(dir, name);
      let m: number;
      try {
        m = statSync(file).mtimeMs;
      } catch {
        continue;
      }
      newest = Math.max(newest, m);
      if (/^gen-.*\.(prompt|compiled)$/.test(name) && now - m > STALE_GENERATION_MS)
        rmSync(file, { force: true });
    }
    if (now - newest > STALE_CONVERSATION_MS) rmSync(dir, { recursive: true, force: true });
  }
  return true;
}
