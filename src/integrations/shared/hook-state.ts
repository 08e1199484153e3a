/**
 * Private hook state under `~/.aic/state/<projectHash>/` (folders 0700, files 0600). Nothing is
 * kept under shared names in the system temp folder, so other users cannot read prompts or forge
 * gate markers, and two projects or conversations never collide.
 *
 *   <projectHash>/recent-compile.json               project-wide recency marker (compile gate)
 *   <projectHash>/sweep.stamp                       throttle for the stale-state sweep
 *   <projectHash>/conversations/<conv>/cursor.marker   "Cursor drives this conversation"
 *   <projectHash>/conversations/<conv>/gen-<gen>.compiled  aic_compile seen in this generation
 *   <projectHash>/conversations/<conv>/gen-<gen>.prompt    the user's prompt for this generation
 *   <projectHash>/conversations/<conv>/edited-files.jsonl  files edited (append-only)
 *   <projectHash>/conversations/<conv>/compiles.jsonl      intents compiled (for the station)
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  PRIVATE_DIR_MODE,
  PRIVATE_FILE_MODE,
  ensurePrivateDir,
  stateDir,
} from "../../shared/paths.js";
import { safeKey } from "./ids.js";
import { sha256Hex } from "./sha256.js";

/** Used when a payload carries no conversation id at all. */
export const UNKNOWN_CONVERSATION = "_unknown";

/** The same key as paths.projectHash (tested), computed without loading node:crypto. */
export function hookProjectHash(projectRoot: string): string {
  return sha256Hex(resolve(projectRoot)).slice(0, 16);
}

export function projectStateDir(projectRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(stateDir(env), hookProjectHash(projectRoot));
}

export function conversationsDir(
  projectRoot: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  return join(projectStateDir(projectRoot, env), "conversations");
}

export function conversationStateDir(
  projectRoot: string,
  conversationId: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string {
  return join(
    conversationsDir(projectRoot, env),
    conversationId ? safeKey(conversationId) : UNKNOWN_CONVERSATION,
  );
}

/** mkdir -p with every created level private; cheaper than ensurePrivateDir when it exists. */
export function ensureStateDir(dir: string): string {
  try {
    if (statSync(dir).isDirectory()) return dir;
  } catch {
    // Missing: create below.
  }
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  return ensurePrivateDir(dir);
}

/**
 * Write via temp file + rename so a concurrent reader sees the old or the new content. The temp
 * name is new, so it is created with mode 0600 (a umask only removes bits): no chmod needed.
 */
export function writeFileAtomic(file: string, content: string): void {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.tmp`;
  writeFileSync(tmp, content, { mode: PRIVATE_FILE_MODE, flag: "wx" });
  renameSync(tmp, file);
}

export function readTextIfExists(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

export function mtimeMs(file: string): number | undefined {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

const MARKER = "cursor.marker";
/** A conversation Cursor stamped within this window still counts as Cursor's. */
export const CURSOR_MARKER_FRESH_MS = 24 * 3600_000;
const MARKER_REFRESH_MS = 3600_000;

/**
 * Remember that Cursor drives this conversation (the payload carried `cursor_version`), so a
 * later payload of the same conversation that lacks the field is still recognised.
 */
export function touchCursorMarker(convDir: string, now = Date.now()): void {
  const file = join(convDir, MARKER);
  const m = mtimeMs(file);
  if (m !== undefined && now - m < MARKER_REFRESH_MS) return;
  ensureStateDir(convDir);
  writeFileAtomic(file, new Date(now).toISOString() + "\n");
}

export function hasFreshCursorMarker(convDir: string, now = Date.now()): boolean {
  const m = mtimeMs(join(convDir, MARKER));
  return m !== undefined && now - m < CURSOR_MARKER_FRESH_MS;
}
