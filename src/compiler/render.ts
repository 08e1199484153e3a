/**
 * Render: the prompt opens with the intent itself, then each file under a header with its path
 * and tier, then a short note of what was left out and why. Pure function of its inputs, so the
 * same inputs give the same bytes.
 */
import type { PackedItem } from "./pack.js";
import { renderSection } from "./pack.js";

export interface LeftOut {
  /** Ranked files that got nothing (not even a path line). */
  unlisted: number;
  /** Files the guard never includes (.env, keys). */
  forbidden: number;
  /** Files skipped by the scan or as non-text. */
  skipped: number;
  redactions: number;
  injections: number;
  /** Files listed by path only. */
  pathOnly: number;
}

export function renderIntent(intent: string): string {
  return `# Task\n\n${intent.trim()}\n\n`;
}

export function renderPrompt(
  intent: string,
  items: PackedItem[],
  left: LeftOut,
  candidates = 1,
): string {
  let out = renderIntent(intent);
  const content = items.filter((i) => i.tier !== "path");
  const paths = items.filter((i) => i.tier === "path");
  if (content.length > 0) {
    out += `# Context\n\nFiles of the project selected for this task, most relevant first.\n\n`;
    for (const item of content) out += renderSection(item);
  }
  if (paths.length > 0) {
    out += `# Also relevant (paths only)\n\n`;
    for (const item of paths) out += renderSection(item);
    out += "\n";
  }
  out += renderLeftOut(left, candidates);
  return out;
}

export function renderLeftOut(left: LeftOut, candidates = 1): string {
  const notes: string[] = [];
  if (candidates === 0)
    notes.push(
      "No project file could be considered: the project is empty, or every file is ignored or excluded.",
    );
  if (left.unlisted > 0)
    notes.push(`${left.unlisted} lower-ranked files did not fit the token budget.`);
  if (left.pathOnly > 0)
    notes.push(`${left.pathOnly} files are listed by path only (no room for their content).`);
  if (left.forbidden > 0)
    notes.push(
      `${left.forbidden} secret-bearing files (.env, keys, certificates) are never included.`,
    );
  if (left.skipped > 0)
    notes.push(
      `${countOf(left.skipped, "file was", "files were")} skipped (ignored, binary, generated, or over 1 MB).`,
    );
  if (left.redactions > 0)
    notes.push(`${left.redactions} secrets were redacted in place ([REDACTED:type]).`);
  if (left.injections > 0)
    notes.push(`${left.injections} prompt-injection markers in file content were neutralised.`);
  if (notes.length === 0) return "";
  return `# Left out\n\n${notes.map((n) => `- ${n}`).join("\n")}\n`;
}

function countOf(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
