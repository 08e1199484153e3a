import { HooksJsonError } from "../../src/hooks-json/index.js";

export const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
export const dec = (b: Uint8Array): string => new TextDecoder().decode(b);

/** Run fn and return the HooksJsonError it throws (fails the test if it does not throw one). */
export function errorOf(fn: () => unknown): HooksJsonError {
  try {
    fn();
  } catch (err) {
    if (err instanceof HooksJsonError) return err;
    throw err;
  }
  throw new Error("expected a HooksJsonError, got none");
}
