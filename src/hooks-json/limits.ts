import { createScanner } from "jsonc-parser";
import { T, scanSkippingWhitespace } from "./tokens.js";
import { LimitError, positionOf } from "./errors.js";

/** Resource limits for hooks.json (seed: cursorhooks-ownership "Grammar, limits"). */
export const LIMITS = {
  maxBytes: 4 * 1024 * 1024,
  /** Container nesting, counting the root container as level 1. */
  maxDepth: 64,
  /** Containers, keys and scalars. */
  maxNodes: 65_536,
} as const;

/**
 * A cheap lexical pass over the tokens (no tree, no recursion) that refuses documents over the
 * depth or node budget before the recursive parser runs, so hostile input cannot exhaust the
 * stack or memory. Syntax errors are left to the parser; this pass only counts.
 */
export function checkLexicalBudget(text: string): void {
  const scanner = createScanner(text, false);
  let depth = 0;
  let nodes = 0;
  for (
    let kind = scanSkippingWhitespace(scanner, text);
    kind !== T.EOF;
    kind = scanSkippingWhitespace(scanner, text)
  ) {
    switch (kind) {
      case T.OpenBrace:
      case T.OpenBracket:
        depth++;
        if (depth > LIMITS.maxDepth) {
          throw new LimitError("too-deep", positionOf(text, scanner.getTokenOffset()));
        }
        nodes++;
        break;
      case T.CloseBrace:
      case T.CloseBracket:
        if (depth > 0) depth--;
        break;
      case T.String:
      case T.Number:
      case T.True:
      case T.False:
      case T.Null:
        nodes++;
        break;
      default:
        break;
    }
    if (nodes > LIMITS.maxNodes) {
      throw new LimitError("too-many-nodes", positionOf(text, scanner.getTokenOffset()));
    }
  }
}
