import type { JSONScanner } from "jsonc-parser";

/**
 * jsonc-parser's SyntaxKind values. Its typings declare SyntaxKind as an ambient const enum,
 * which isolatedModules cannot read, so the numbers are restated here.
 */
export const T = {
  OpenBrace: 1,
  CloseBrace: 2,
  OpenBracket: 3,
  CloseBracket: 4,
  Comma: 5,
  Colon: 6,
  Null: 7,
  True: 8,
  False: 9,
  String: 10,
  Number: 11,
  LineComment: 12,
  BlockComment: 13,
  LineBreak: 14,
  Trivia: 15,
  Unknown: 16,
  EOF: 17,
} as const;

/**
 * Scan the next token, skipping JSON whitespace here first: jsonc-parser's scanner builds the
 * text of a whitespace run one character at a time, which takes seconds on megabytes of
 * indentation. Comments are returned as tokens (the caller decides whether they are allowed).
 */
export function scanSkippingWhitespace(scanner: JSONScanner, text: string): number {
  const start = scanner.getPosition();
  let pos = start;
  for (;;) {
    const c = text.charCodeAt(pos);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break;
    pos++;
  }
  if (pos !== start) scanner.setPosition(pos);
  return scanner.scan();
}
