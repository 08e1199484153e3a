import { describe, expect, it } from "vitest";
import {
  LIMITS,
  LimitError,
  ParseError,
  UnsupportedError,
  canonicalJson,
  entryDigest,
  parseHooksDocument,
  parseJsonBytes,
  parseJsonText,
} from "../../src/hooks-json/index.js";
import { enc, errorOf } from "./helpers.js";

describe("parser modes", () => {
  // Red if strict mode tolerated comments (JSONTestSuite n_ cases would pass unnoticed).
  it("strict mode refuses comments and trailing commas", () => {
    expect(errorOf(() => parseJsonText('{"a":1 // x\n}', "strict")).code).toBe(
      "comment-not-allowed",
    );
    expect(errorOf(() => parseJsonText('{"a":1 /* x */}', "strict")).code).toBe(
      "comment-not-allowed",
    );
    expect(errorOf(() => parseJsonText('{"a":1,}', "strict")).code).toBe(
      "trailing-comma-not-allowed",
    );
    expect(errorOf(() => parseJsonText("[1,]", "strict")).code).toBe("trailing-comma-not-allowed");
  });

  // Red if hand-edited files with comments or trailing commas were refused in JSONC mode.
  it("jsonc mode accepts comments and one trailing comma", () => {
    const doc = parseJsonText('// c\n{"a":[1,2,], /* b */ "b":true,}', "jsonc");
    expect(doc.root.type).toBe("object");
    expect(canonicalJson(doc.root)).toBe('{"a":[1,2],"b":true}');
  });

  // Red if JSONC mode became lenient beyond comments/trailing commas.
  it("jsonc mode still refuses double commas, unterminated comments and bare words", () => {
    for (const bad of ["[1,,]", "[,]", "{,}", '{"a":1 /* x', "{a:1}", "[NaN]", "['x']"]) {
      expect(errorOf(() => parseJsonText(bad, "jsonc")).kind).toBe("parse");
    }
  });

  // Red if syntax errors lost their position or echoed content.
  it("reports syntax errors with a line and column and no document content", () => {
    const err = errorOf(() => parseJsonText('{\n  "secret-token": tru\n}', "jsonc"));
    expect(err).toBeInstanceOf(ParseError);
    expect(err.line).toBe(2);
    expect(err.message).not.toContain("secret");
  });
});

describe("duplicate keys", () => {
  // Red if a duplicate key at any depth were accepted (last-wins would hide a hook).
  it("are rejected at every depth", () => {
    expect(errorOf(() => parseJsonText('{"a":1,"a":2}', "strict")).code).toBe("duplicate-key");
    expect(errorOf(() => parseJsonText('[{"x":{"b":1,"b":1}}]', "strict")).code).toBe(
      "duplicate-key",
    );
  });

  // Red if keys equal only after escape decoding were treated as different.
  it("are rejected when equal only after escape decoding", () => {
    const err = errorOf(() => parseJsonText('{"hooks":{},"ho\\u006fks":{}}', "strict"));
    expect(err.code).toBe("duplicate-key");
    expect(err.column).toBe(13);
    expect(errorOf(() => parseJsonText('{"\\/":1,"/":2}', "strict")).code).toBe("duplicate-key");
  });

  // Red if NFC and NFD spellings were merged (they are different keys in JSON).
  it("keeps composed and decomposed spellings as distinct keys", () => {
    expect(() => parseJsonText('{"\u00e9":1,"e\u0301":2}', "strict")).not.toThrow();
  });
});

describe("values", () => {
  // Red if numbers were converted to floats (1.0 -> 1, huge exponents -> Infinity).
  it("keeps numbers as their source text", () => {
    const doc = parseJsonText("[1.0, 1e400, -0, 12345678901234567890123]", "strict");
    expect(canonicalJson(doc.root)).toBe("[1.0,1e400,-0,12345678901234567890123]");
  });

  // Red if lone surrogate escapes were replaced by U+FFFD.
  it("keeps lone surrogate escapes as UTF-16 code units", () => {
    const doc = parseJsonText('["\\ud800"]', "strict");
    expect(canonicalJson(doc.root)).toBe('["\\ud800"]');
    const item = doc.root.type === "array" ? doc.root.items[0] : undefined;
    expect(item?.type === "string" ? item.value : undefined).toBe("\ud800");
  });

  // Red if the scanner's leniencies leaked into strict numbers (leading zeros, bare dots).
  it("refuses non-JSON numbers", () => {
    for (const bad of ["[01]", "[1.]", "[.5]", "[-]", "[1e]", "[+1]", "[0x10]", "[-01]"]) {
      expect(errorOf(() => parseJsonText(bad, "strict")).kind).toBe("parse");
    }
  });

  // Red if raw control characters were accepted inside strings.
  it("refuses raw control characters in strings", () => {
    expect(errorOf(() => parseJsonText('["a\tb"]', "strict")).kind).toBe("parse");
  });
});

describe("encoding", () => {
  // Red if invalid UTF-8 were decoded with replacement characters and later rewritten.
  it("rejects invalid UTF-8", () => {
    const bytes = new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]);
    expect(errorOf(() => parseJsonBytes(bytes, "jsonc")).code).toBe("invalid-utf8");
    const encodedSurrogate = new Uint8Array([0x5b, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x5d]);
    expect(errorOf(() => parseJsonBytes(encodedSurrogate, "jsonc")).code).toBe("invalid-utf8");
  });

  // Red if a BOM were silently kept or dropped (decision: refuse, see docs).
  it("refuses a UTF-8 byte order mark as unsupported", () => {
    const err = errorOf(() =>
      parseJsonBytes(new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]), "jsonc"),
    );
    expect(err).toBeInstanceOf(UnsupportedError);
    expect(err.code).toBe("bom");
  });

  // Red if non-ASCII content broke offsets (UTF-16 offsets vs bytes).
  it("handles astral characters before an error position", () => {
    const err = errorOf(() => parseJsonText('{"😀": x}', "strict"));
    expect(err.column).toBe(8);
  });
});

describe("limits", () => {
  // Red if the byte limit were not checked before decoding.
  it("refuses more than 4 MiB", () => {
    const big = new Uint8Array(LIMITS.maxBytes + 1).fill(0x20);
    expect(errorOf(() => parseJsonBytes(big, "strict")).code).toBe("too-large");
    expect(() =>
      parseJsonBytes(enc(`[${" ".repeat(LIMITS.maxBytes - 2)}]`), "strict"),
    ).not.toThrow();
  });

  // Red if depth counted differently: 64 levels including the root pass, 65 fail.
  it("allows 64 levels of nesting including the root and refuses 65", () => {
    expect(() => parseJsonText("[".repeat(64) + "]".repeat(64), "strict")).not.toThrow();
    const err = errorOf(() => parseJsonText("[".repeat(65) + "]".repeat(65), "strict"));
    expect(err).toBeInstanceOf(LimitError);
    expect(err.code).toBe("too-deep");
  });

  // Red if the lexical pass ran after (or instead of) a recursive parse: an unbalanced
  // million-deep input must be refused by the limit, not by a stack overflow or syntax error.
  it("refuses deep unbalanced input in the lexical pass", () => {
    expect(errorOf(() => parseJsonText("[".repeat(1_000_000), "strict")).code).toBe("too-deep");
  });

  // Red if nodes (containers, keys, scalars) were counted differently.
  it("allows 65,536 nodes and refuses 65,537", () => {
    const ok = `[${Array(LIMITS.maxNodes - 1)
      .fill("0")
      .join(",")}]`;
    expect(() => parseJsonText(ok, "strict")).not.toThrow();
    const over = `[${Array(LIMITS.maxNodes).fill("0").join(",")}]`;
    expect(errorOf(() => parseJsonText(over, "strict")).code).toBe("too-many-nodes");
    // keys count: an object with n members is 1 + 2n nodes (object, then key and value each)
    const keys = `{${Array.from({ length: 32_767 }, (_, i) => `"${i}":0`).join(",")}}`;
    expect(() => parseJsonText(keys, "strict")).not.toThrow();
    const keysOver = `{${Array.from({ length: 32_768 }, (_, i) => `"${i}":0`).join(",")}}`;
    expect(errorOf(() => parseJsonText(keysOver, "strict")).code).toBe("too-many-nodes");
  });
});

describe("hooks document shape", () => {
  const shape = (s: string) => errorOf(() => parseHooksDocument(enc(s)));

  // Red if any wrong shape were edited instead of refused.
  it("requires an object root, an object hooks and array events", () => {
    expect(shape("[]").code).toBe("root-not-object");
    expect(shape('{"hooks": []}').code).toBe("hooks-not-object");
    expect(shape('{"hooks": {"stop": {}}}').code).toBe("event-not-array");
    expect(shape('{"hooks": {"custom": "x"}}').code).toBe("event-not-array");
  });

  // Red if version 2 (an unknown format) were edited, or native spellings of 1 refused.
  it("accepts version 1 in any numeric spelling and refuses others", () => {
    for (const v of ["1", "1.0", "1e0", "10e-1"]) {
      expect(() => parseHooksDocument(enc(`{"version": ${v}}`))).not.toThrow();
    }
    for (const v of ["2", '"1"', "null", "true"])
      expect(shape(`{"version": ${v}}`).code).toBe("version-not-1");
  });

  // Red if an unknown event were refused (it is foreign) or went unreported.
  it("reports unknown events as warnings without echoing their names", () => {
    const doc = parseHooksDocument(enc('{"hooks": {"stop": [], "onSecretThing": []}}'));
    expect(doc.warnings).toHaveLength(1);
    expect(doc.warnings[0]).toMatchObject({ code: "unknown-event", line: 1, column: 24 });
    expect(doc.warnings[0]!.message).not.toContain("onSecretThing");
  });
});

describe("canonical digests", () => {
  const d = (s: string) => entryDigest(parseJsonText(s, "jsonc").root);

  // Red if whitespace, comments, key order or escape spelling changed a digest.
  it("ignore whitespace, comments, key order and equivalent escapes", () => {
    const base = d('{"command":"a/b","timeout":5}');
    expect(d('{ "timeout" : 5 , /* c */ "command" : "a\\/b" }')).toBe(base);
    expect(d('{"command":"\\u0061/b","timeout":5}')).toBe(base);
  });

  // Red if number lexemes, NFC/NFD or lone surrogates collapsed into one digest.
  it("distinguish number lexemes, Unicode normal forms and lone surrogates", () => {
    expect(d('{"t":5}')).not.toBe(d('{"t":5.0}'));
    expect(d('{"c":"\u00e9"}')).not.toBe(d('{"c":"e\u0301"}'));
    expect(d('{"c":"\\ud800"}')).not.toBe(d('{"c":"\\ufffd"}'));
    expect(d('{"c":"\\ud800"}')).not.toBe(d('{"c":"\\udc00"}'));
  });
});
