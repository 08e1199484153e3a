/**
 * Weak intents: what a model sends to aic_compile when it did not bother to state the task.
 * The inject hook swaps such an intent for the user's own prompt (prewarmed on submit).
 */

/** The intent the MCP tool assumes when none is given; also weak. */
export const OMITTED_INTENT = "understand project structure, architecture, and recent changes";

const GENERIC = new Set([
  "",
  "task",
  "the task",
  "help",
  "continue",
  "context",
  "compile",
  "general",
  "user request",
  "the user's request",
  "user's request",
  "user prompt",
  "provide context",
  "get context",
  "do it",
  "fix",
  "fix it",
  "implement",
  "n/a",
  "none",
  "unknown",
  OMITTED_INTENT,
]);

export function normalizeIntent(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

export function isWeakIntent(intent: unknown): boolean {
  if (typeof intent !== "string") return true;
  const n = normalizeIntent(intent)
    .toLowerCase()
    .replace(/[.!?]+$/, "");
  return GENERIC.has(n) || n.length < 8;
}

/** The user's prompt as an intent: their exact words, capped so one tool call stays small. */
export const MAX_INTENT_CHARS = 8000;
export function promptAsIntent(prompt: string): string {
  const chars = Array.from(prompt.trim());
  return chars.length > MAX_INTENT_CHARS ? chars.slice(0, MAX_INTENT_CHARS).join("") : chars.join("");
}
