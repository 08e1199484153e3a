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
