/**
 * The token budget of one compile: the caller's `budget`, else aic.config.json's, else 8000.
 * When the caller reports how full the conversation already is (`conversationTokens`), the
 * budget shrinks so the compiled context takes at most a quarter of what is left of a typical
 * context window, never below a floor that still carries the top files.
 */

/** A typical large-model window; the exact window of the caller's model is not known to AIC. */
export const ASSUMED_CONTEXT_WINDOW = 200_000;
export const SHARE_OF_REMAINING_WINDOW = 0.25;
export const MIN_BUDGET = 1_000;

export function effectiveBudget(budget: number, conversationTokens?: number): number {
  if (conversationTokens === undefined) return budget;
  const remaining = Math.max(0, ASSUMED_CONTEXT_WINDOW - conversationTokens);
  const cap = Math.max(MIN_BUDGET, Math.floor(remaining * SHARE_OF_REMAINING_WINDOW));
  return Math.min(budget, cap);
}
