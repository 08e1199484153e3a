/**
 * Token counting with a real tokenizer (cl100k_base via gpt-tokenizer, pure JS). Loaded on first
 * use: it is the single largest start-up cost of a compile (~70 ms).
 */
let counter: Promise<(text: string) => number> | undefined;

export function countTokens(_sample?: string): Promise<(text: string) => number> {
  counter ??= import("gpt-tokenizer/encoding/cl100k_base").then(
    (m) => (text: string) => m.countTokens(text),
  );
  return counter;
}
