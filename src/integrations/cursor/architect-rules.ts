/**
 * The "Critical reminders" of a project's `.cursor/rules/AIC-architect.mdc`: the invariants
 * AIC-session-init puts in front of every new Cursor session.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const ARCHITECT_RULE = ".cursor/rules/AIC-architect.mdc";

/** Bullets ("- x", "* x", "1. x") under a "Critical reminders" heading of any level. */
export function criticalReminders(markdown: string): string[] {
  const lines = markdown.split(/\r?\n/);
  const start = lines.findIndex((l) => /^#{1,6}\s+critical reminders\b/i.test(l.trim()));
  if (start === -1) return [];
  const level = /^#+/.exec(lines[start]!.trim())![0].length;
  const bullets: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const heading = /^(#{1,6})\s/.exec(line.trim());
    if (heading && heading[1]!.length <= level) break;
    const bullet = /^\s*(?:[-*+]|\d+[.)])\s+(.*\S)\s*$/.exec(line);
    if (bullet) bullets.push(bullet[1]!);
    else if (bullets.length && /^\s{2,}\S/.test(line))
      bullets[bullets.length - 1] += " " + line.trim();
  }
  return bullets;
}

export function readCriticalReminders(projectRoot: string): string[] {
  try {
    return criticalReminders(readFileSync(join(projectRoot, ARCHITECT_RULE), "utf8"));
  } catch {
    return [];
  }
}
