/**
 * Weak intents: what a model sends to aic_compile when it did not bother to state the task.
 * The inject hook swaps such an intent for the user's own prompt (prewarmed on submit).
 */
import { normaliseIntentText, isWeakIntent as serviceThinksWeak } from "../../service/intent.js";

/** The intent the MCP tool assumes when none is given; also weak. */
export const OMITTED_INTENT = "understand project structure, architecture, and recent changes";

/**
 * Placeholders a model writes when it did not state the task, already normalised (lowercase,
 * punctuation as spaces). Conversational follow-ups ("continue", "yes") are the service's list,
 * shared so both sides agree.
 */
const PLACEHOLDERS = new Set([
  "task",
  "the task",
  "request",
  "the request",
  "fix it",
  "fix this",
  "fix the bug",
  "implement it",
  "implement this",
  "do this",
  "help",
  "context",
  "compile",
  "general",
  "user request",
  "the user s request",
  "user prompt",
  "provide context",
  "get context",
  "n a",
  "none",
  "unknown",
  "understand project structure architecture and recent changes", // OMITTED_INTENT
]);

export function isWeakIntent(intent: unknown): boolean {
  if (typeof intent !== "string") return true;
  const n = normaliseIntentText(intent);
  return n.length < 3 || PLACEHOLDERS.has(n) || serviceThinksWeak(intent);
}

/** The user's prompt as an intent: their exact words, capped so one tool call stays small. */
export const MAX_INTENT_CHARS = 8000;
export function promptAsIntent(prompt: string): string {
  const chars = Array.from(prompt.trim());
  return chars.length > MAX_INTENT_CHARS
    ? chars.slice(0, MAX_INTENT_CHARS).join("")
    : chars.join("");
}
