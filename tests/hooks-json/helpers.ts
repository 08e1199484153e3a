import { HooksJsonError, type JsonValue } from "../../src/hooks-json/index.js";

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

/** A parsed tree as plain JS values (numbers as floats), like JSON.parse or a formatter sees it. */
export function toJs(node: JsonValue): unknown {
  switch (node.type) {
    case "string":
      return node.value;
    case "number":
      return Number(node.text);
    case "literal":
      return JSON.parse(node.text);
    case "array":
      return node.items.map(toJs);
    case "object":
      return Object.fromEntries(node.members.map((m) => [m.key.value, toJs(m.value)]));
  }
}
