/**
 * Which intent actually gets compiled. A weak follow-up ("continue", "yes", empty) carries no
 * subject to rank on, so it falls back to the conversation's last real intent; a stepIntent
 * (the agent's current sub-step) is appended to refine the ranking toward that step.
 */
import { AicInputError } from "./errors.js";

/**
 * Words that carry no subject: agreement, politeness, "go on" phrasing, pronouns and bare task
 * verbs. An intent made only of these ("ok, continue please", "yes do it", "fix it") is weak; one
 * real word ("fix the login", "more tests") makes it real.
 */
const FILLER_WORDS = new Set(
  (
    "continue go on ahead keep going carry proceed next resume yes y yeah yep yup ok okay k sure " +
    "fine alright right cool great perfect good sounds lgtm thanks thank you please pls now " +
    "again retry try same more do it that this so then and just the thing one " +
    "fix finish implement run make start"
  ).split(" "),
);

/** Lowercase, punctuation and extra spaces removed: "Go on!" and "go  on" are the same. */
export function normaliseIntentText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

export function isWeakIntent(text: string): boolean {
  const words = normaliseIntentText(text).split(" ").filter(Boolean);
  return words.every((w) => FILLER_WORDS.has(w));
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
