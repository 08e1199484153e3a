/**
 * Which intent actually gets compiled. A weak follow-up ("continue", "yes", empty) carries no
 * subject to rank on, so it falls back to the conversation's last real intent; a stepIntent
 * (the agent's current sub-step) is appended to refine the ranking toward that step.
 */
import { AicInputError } from "./errors.js";

const WEAK_INTENTS = new Set([
  "",
  "continue",
  "please continue",
  "go on",
  "go ahead",
  "keep going",
  "carry on",
  "proceed",
  "next",
  "yes",
  "yes please",
  "y",
  "yeah",
  "yep",
  "ok",
  "okay",
  "k",
  "sure",
  "do it",
  "sounds good",
  "lgtm",
  "thanks",
  "thank you",
  "again",
  "try again",
  "retry",
  "same",
  "more",
  "please",
]);

/** Lowercase, punctuation and extra spaces removed: "Go on!" and "go  on" are the same. */
function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

export function isWeakIntent(text: string): boolean {
  return WEAK_INTENTS.has(normalise(text));
}

export type IntentSource = "given" | "conversation-fallback" | "step-intent" | "given-weak";

export interface ResolvedIntent {
  /** The text handed to the compiler. */
  intent: string;
  source: IntentSource;
  /** The caller's intent when it is a real one (stored as the session's last real intent). */
  realIntent: string | null;
}

export function resolveIntent(input: {
  given: string;
  stepIntent?: string;
  /** The conversation's last real intent, if any. */
  lastRealIntent?: string | null;
}): ResolvedIntent {
  const given = input.given.trim();
  const step = input.stepIntent?.trim() || undefined;
  const weak = isWeakIntent(given);
  let base: string | undefined;
  let source: IntentSource;
  if (!weak) {
    base = given;
    source = "given";
  } else if (input.lastRealIntent) {
    base = input.lastRealIntent;
    source = "conversation-fallback";
  } else if (step) {
    base = undefined;
    source = "step-intent";
  } else if (given) {
    // "continue" with no history: nothing better to compile, so compile what was said.
    base = given;
    source = "given-weak";
  } else {
    throw new AicInputError(
      "intent is empty and there is no earlier intent in this conversation to fall back to; " +
        "pass the user's request as intent",
    );
  }
  const parts = [base, step && step !== base ? step : undefined].filter(
    (p): p is string => p !== undefined,
  );
  return { intent: parts.join("\n"), source, realIntent: weak ? null : given };
}
