/**
 * The honest name for raw → compiled: "reduction" is 1 - compiled/raw tokens, the share of the
 * candidate code that was left out. It says nothing about relevance (the benchmark does).
 */
export function reduction(tokensRaw: number, tokensCompiled: number): number {
  return tokensRaw > 0 ? Math.max(0, 1 - tokensCompiled / tokensRaw) : 0;
}
