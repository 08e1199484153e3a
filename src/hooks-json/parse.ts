import { createScanner, type JSONScanner } from "jsonc-parser";
import { LimitError, ParseError, UnsupportedError, positionOf } from "./errors.js";
import { LIMITS, checkLexicalBudget } from "./limits.js";
import { T, scanSkippingWhitespace } from "./tokens.js";

/**
 * Offset-precise JSON/JSONC document model built on jsonc-parser's scanner. jsonc-parser's own
 * parse() is lenient (it recovers from errors, accepts duplicate keys, converts numbers to
 * floats); this parser adds what an ownership proof needs: a strict mode that passes
 * JSONTestSuite, duplicate-key rejection after escape decoding, numbers kept as their source
 * text, UTF-8 validation and resource limits checked before any tree is built.
 */

/** strict: RFC 8259 JSON. jsonc: JSON plus // and block comments and trailing commas. */
export type ParseMode = "strict" | "jsonc";

interface Span {
  /** UTF-16 offsets into the decoded text: [start, end). */
  start: number;
  end: number;
}

export interface JsonString extends Span {
  type: "string";
  /** Decoded value; lone-surrogate escapes stay lone surrogates. */
  value: string;
}
export interface JsonNumber extends Span {
  type: "number";
  /** The exact source lexeme; never converted to a float. */
  text: string;
}
export interface JsonLiteral extends Span {
  type: "literal";
  text: "true" | "false" | "null";
}
export interface JsonArray extends Span {
  type: "array";
  items: JsonValue[];
  /** Offset of the comma after items[i], or -1. */
  commas: number[];
}
export interface JsonMember extends Span {
  key: JsonString;
  value: JsonValue;
}
export interface JsonObject extends Span {
  type: "object";
  members: JsonMember[];
  /** Offset of the comma after members[i], or -1. */
  commas: number[];
}
export type JsonValue = JsonString | JsonNumber | JsonLiteral | JsonArray | JsonObject;

export interface JsonDocument {
  /** The decoded text every offset refers to. */
  text: string;
  root: JsonValue;
  mode: ParseMode;
}

const STRICT_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Decode UTF-8 strictly. Invalid sequences (overlong forms, encoded surrogates, truncation) are
 * refused. A byte order mark is refused too: RFC 8259 forbids emitting one, Node's JSON.parse
 * rejects it, and keeping it would make our digests depend on an invisible prefix.
 */
export function decodeUtf8(bytes: Uint8Array): string {
  if (bytes.length > LIMITS.maxBytes) throw new LimitError("too-large");
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    throw new UnsupportedError("bom", { line: 1, column: 1 });
  }
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new ParseError("invalid-utf8");
  }
}

/** Parse UTF-8 bytes into an offset-precise tree, enforcing every limit first. */
export function parseJsonBytes(bytes: Uint8Array, mode: ParseMode): JsonDocument {
  return parseJsonText(decodeUtf8(bytes), mode);
}

/** Parse already-decoded text (offsets are UTF-16 units). */
export function parseJsonText(text: string, mode: ParseMode): JsonDocument {
  if (text.length > LIMITS.maxBytes) throw new LimitError("too-large");
  checkLexicalBudget(text);
  const parser = new Parser(text, mode);
  return { text, root: parser.parseDocument(), mode };
}

class Parser {
  private readonly scanner: JSONScanner;
  private current = 0;

  constructor(
    private readonly text: string,
    private readonly mode: ParseMode,
  ) {
    this.scanner = createScanner(text, false);
  }

  parseDocument(): JsonValue {
    this.next();
    const root = this.parseValue();
    this.next();
    if (this.kind() !== T.EOF) this.fail("syntax");
    return root;
  }

  /** Advance to the next significant token, checking trivia and scan errors on the way. */
  private next(): void {
    for (;;) {
      const kind = scanSkippingWhitespace(this.scanner, this.text);
      if (this.scanner.getTokenError() !== 0) this.fail("syntax");
      if (kind === T.LineBreak || kind === T.Trivia) continue;
      if (kind === T.LineComment || kind === T.BlockComment) {
        if (this.mode === "strict") this.fail("comment-not-allowed");
        continue;
      }
      this.current = kind;
      return;
    }
  }

  /** The current token (a method so TypeScript does not narrow it across next()). */
  private kind(): number {
    return this.current;
  }

  private get offset(): number {
    return this.scanner.getTokenOffset();
  }

  private get tokenEnd(): number {
    return this.scanner.getTokenOffset() + this.scanner.getTokenLength();
  }

  private fail(
    code: "syntax" | "comment-not-allowed" | "trailing-comma-not-allowed" | "duplicate-key",
    at = this.offset,
  ): never {
    throw new ParseError(code, positionOf(this.text, at));
  }

  private parseValue(): JsonValue {
    switch (this.kind()) {
      case T.OpenBrace:
        return this.parseObject();
      case T.OpenBracket:
        return this.parseArray();
      case T.String:
        return this.stringNode();
      case T.Number: {
        const text = this.text.slice(this.offset, this.tokenEnd);
        if (!STRICT_NUMBER.test(text)) this.fail("syntax");
        return { type: "number", start: this.offset, end: this.tokenEnd, text };
      }
      case T.True:
      case T.False:
      case T.Null:
        return {
          type: "literal",
          start: this.offset,
          end: this.tokenEnd,
          text: this.text.slice(this.offset, this.tokenEnd) as JsonLiteral["text"],
        };
      default:
        return this.fail("syntax");
    }
  }

  private stringNode(): JsonString {
    return {
      type: "string",
      start: this.offset,
      end: this.tokenEnd,
      value: this.scanner.getTokenValue(),
    };
  }

  private parseObject(): JsonObject {
    const start = this.offset;
    const members: JsonMember[] = [];
    const commas: number[] = [];
    const seen = new Set<string>();
    this.next();
    while (this.kind() !== T.CloseBrace) {
      if (this.kind() !== T.String) this.fail("syntax");
      const key = this.stringNode();
      if (seen.has(key.value)) this.fail("duplicate-key", key.start);
      seen.add(key.value);
      this.next();
      if (this.kind() !== T.Colon) this.fail("syntax");
      this.next();
      const value = this.parseValue();
      members.push({ key, value, start: key.start, end: value.end });
      this.next();
      commas.push(this.separator(T.CloseBrace));
    }
    return { type: "object", start, end: this.tokenEnd, members, commas };
  }

  private parseArray(): JsonArray {
    const start = this.offset;
    const items: JsonValue[] = [];
    const commas: number[] = [];
    this.next();
    while (this.kind() !== T.CloseBracket) {
      items.push(this.parseValue());
      this.next();
      commas.push(this.separator(T.CloseBracket));
    }
    return { type: "array", start, end: this.tokenEnd, items, commas };
  }

  /**
   * After a member or item: consume a comma and return its offset, or return -1 when the
   * container closes here. A trailing comma before `close` is an error in strict mode.
   */
  private separator(close: number): number {
    if (this.kind() !== T.Comma) {
      if (this.kind() !== close) this.fail("syntax");
      return -1;
    }
    const comma = this.offset;
    this.next();
    if (this.kind() === close && this.mode === "strict") {
      this.fail("trailing-comma-not-allowed", comma);
    }
    return comma;
  }
}
