/**
 * The files edited in one conversation. afterFileEdit hooks can run in parallel, so the list is
 * an append-only JSONL file: each edit is one small O_APPEND write (atomic on local
 * filesystems), nothing is read-modified-written, and no update is lost. Readers de-duplicate.
 */
import { appendFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { PRIVATE_FILE_MODE } from "../../shared/paths.js";
import { ensureStateDir, readTextIfExists } from "./hook-state.js";

export const EDITED_FILES = "edited-files.jsonl";

/** Project-relative with `/` when inside the project, else absolute. */
export function normalizeEditedPath(projectRoot: string, p: string): string {
  const abs = isAbsolute(p) ? resolve(p) : resolve(projectRoot, p);
  const rel = relative(projectRoot, abs);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return abs;
  return rel.split(sep).join("/");
}

export function recordEditedFiles(
  convDir: string,
  projectRoot: string,
  paths: string[],
  now = new Date(),
): string[] {
  const normalized = [...new Set(paths.map((p) => normalizeEditedPath(projectRoot, p)))];
  if (normalized.length === 0) return [];
  ensureStateDir(convDir);
  const time = now.toISOString();
  const lines = normalized.map((path) => JSON.stringify({ time, path }) + "\n").join("");
  appendFileSync(join(convDir, EDITED_FILES), lines, { mode: PRIVATE_FILE_MODE });
  return normalized;
}

/** Distinct edited paths, in first-edit order. */
export function readEditedFiles(convDir: string): string[] {
  const text = readTextIfExists(join(convDir, EDITED_FILES));
  if (!text) return [];
  const seen = new Set<string>();
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const path = (JSON.parse(line) as { path?: unknown }).path;
      if (typeof path === "string" && path !== "") seen.add(path);
    } catch {
      // A torn line loses only itself.
    }
  }
  return [...seen];
}
