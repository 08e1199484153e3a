/**
 * Append-only JSONL logs under a project's `.aic/`. One JSON value per line, so prompts with
 * newlines or any Unicode survive (JSON.stringify escapes the newlines). A corrupt line is
 * skipped when reading, never fatal.
 */
import {
  appendFileSync,
  chmodSync,
  existsSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from "node:fs";
import { dirname } from "node:path";
import { ensurePrivateDir, PRIVATE_FILE_MODE } from "./paths.js";

export function appendJsonl(file: string, record: unknown): void {
  ensurePrivateDir(dirname(file));
  // O_APPEND writes of one line are atomic enough for concurrent hooks on local filesystems.
  appendFileSync(file, JSON.stringify(record) + "\n", { mode: PRIVATE_FILE_MODE });
  chmodSync(file, PRIVATE_FILE_MODE);
}

export function readJsonl<T = Record<string, unknown>>(file: string): T[] {
  if (!existsSync(file)) return [];
  const out: T[] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line) as T);
    } catch {
      // A torn or hand-mangled line must not hide the rest of the log.
    }
  }
  return out;
}

/**
 * Drop records older than `maxAgeDays`, judged by the ISO timestamp in `timeField`. Records
 * without a readable time are kept (we cannot prove they are old). Corrupt lines are dropped.
 * Returns how many records were removed.
 */
export function pruneJsonl(
  file: string,
  maxAgeDays: number,
  timeField = "time",
  now = Date.now(),
): number {
  if (!existsSync(file)) return 0;
  const cutoff = now - maxAgeDays * 86_400_000;
  const lines = readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim());
  const kept: string[] = [];
  for (const line of lines) {
    let rec: Record<string, unknown>;
    try {
      rec = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    const t = typeof rec[timeField] === "string" ? Date.parse(rec[timeField] as string) : NaN;
    if (Number.isNaN(t) || t >= cutoff) kept.push(line);
  }
  const removed = lines.length - kept.length;
  if (removed === 0) return 0;
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, kept.map((l) => l + "\n").join(""), { mode: PRIVATE_FILE_MODE });
  renameSync(tmp, file);
  return removed;
}
