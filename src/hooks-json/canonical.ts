import { createHash } from "node:crypto";
import type { JsonValue } from "./parse.js";

/**
 * Canonical form for digests: object keys sorted by UTF-16 code units, arrays in order, strings
 * re-escaped from their decoded UTF-16 value (so `"\u0041"` and `"A"` hash alike, and a lone
 * surrogate hashes as its code unit, never as U+FFFD), numbers as their exact source lexeme
 * (`1.0` and `1` differ: a lexeme change is conservatively drift). Whitespace and comments
 * vanish. JSON.stringify escapes lone surrogates, so the form is well-formed UTF-16.
 */
export function canonicalJson(node: JsonValue, skip?: (node: JsonValue) => boolean): string {
  switch (node.type) {
    case "string":
      return JSON.stringify(node.value);
    case "number":
    case "literal":
      return node.text;
    case "array":
      return `[${node.items
        .filter((item) => !skip?.(item))
        .map((item) => canonicalJson(item, skip))
        .join(",")}]`;
    case "object":
      return `{${[...node.members]
        .sort((a, b) => compareUtf16(a.key.value, b.key.value))
        .map((m) => `${JSON.stringify(m.key.value)}:${canonicalJson(m.value, skip)}`)
        .join(",")}}`;
  }
}

function compareUtf16(a: string, b: string): number {
  // The default string comparison in JS is by UTF-16 code units, which is what we want.
  return a < b ? -1 : a > b ? 1 : 0;
}

/** SHA-256 (hex) of a domain tag and a canonical form. */
export function digest(domain: string, canonical: string): string {
  return createHash("sha256").update(`${domain}\n`, "utf8").update(canonical, "utf8").digest("hex");
}

const ENTRY_DOMAIN = "aic-hooks-json-entry-v1";
export const REMAINDER_DOMAIN = "aic-hooks-json-remainder-v1";

export function entryDigest(entry: JsonValue): string {
  return digest(ENTRY_DOMAIN, canonicalJson(entry));
}
