import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { HooksJsonError, parseHooksDocument, parseJsonBytes } from "../../src/hooks-json/index.js";
import { toJs } from "./helpers.js";

/**
 * JSONTestSuite (nst/JSONTestSuite test_parsing) in strict mode. It lives outside the repo
 * (../shared/conformance); when it is absent this suite is skipped with a note.
 */
const SUITE =
  process.env.JSONTESTSUITE_DIR ??
  fileURLToPath(new URL("../../../shared/conformance/JSONTestSuite/test_parsing", import.meta.url));
const present = existsSync(SUITE);
if (!present) {
  console.warn(
    `JSONTestSuite conformance skipped: needs nst/JSONTestSuite test_parsing at ${SUITE} (or set JSONTESTSUITE_DIR).`,
  );
}

/**
 * Every implementation-defined (i_) case decided; docs/hooks-json.md explains each group.
 * accept: numbers are kept as their lexeme (no float overflow possible); escaped lone
 * surrogates are preserved as UTF-16 units. reject: anything that is not valid UTF-8 (other
 * encodings, overlong forms, encoded surrogates), a BOM, nesting past 64 levels.
 */
export const I_DECISIONS: Record<string, "accept" | "reject"> = {
  "i_number_double_huge_neg_exp.json": "accept",
  "i_number_huge_exp.json": "accept",
  "i_number_neg_int_huge_exp.json": "accept",
  "i_number_pos_double_huge_exp.json": "accept",
  "i_number_real_neg_overflow.json": "accept",
  "i_number_real_pos_overflow.json": "accept",
  "i_number_real_underflow.json": "accept",
  "i_number_too_big_neg_int.json": "accept",
  "i_number_too_big_pos_int.json": "accept",
  "i_number_very_big_negative_int.json": "accept",
  "i_object_key_lone_2nd_surrogate.json": "accept",
  "i_string_1st_surrogate_but_2nd_missing.json": "accept",
  "i_string_1st_valid_surrogate_2nd_invalid.json": "accept",
  "i_string_incomplete_surrogate_and_escape_valid.json": "accept",
  "i_string_incomplete_surrogate_pair.json": "accept",
  "i_string_incomplete_surrogates_escape_valid.json": "accept",
  "i_string_invalid_lonely_surrogate.json": "accept",
  "i_string_invalid_surrogate.json": "accept",
  "i_string_inverted_surrogates_U+1D11E.json": "accept",
  "i_string_lone_second_surrogate.json": "accept",
  "i_string_UTF-16LE_with_BOM.json": "reject",
  "i_string_UTF-8_invalid_sequence.json": "reject",
  "i_string_UTF8_surrogate_U+D800.json": "reject",
  "i_string_invalid_utf-8.json": "reject",
  "i_string_iso_latin_1.json": "reject",
  "i_string_lone_utf8_continuation_byte.json": "reject",
  "i_string_not_in_unicode_range.json": "reject",
  "i_string_overlong_sequence_2_bytes.json": "reject",
  "i_string_overlong_sequence_6_bytes.json": "reject",
  "i_string_overlong_sequence_6_bytes_null.json": "reject",
  "i_string_truncated-utf-8.json": "reject",
  "i_string_utf16BE_no_BOM.json": "reject",
  "i_string_utf16LE_no_BOM.json": "reject",
  "i_structure_500_nested_arrays.json": "reject",
  "i_structure_UTF-8_BOM_empty_object.json": "reject",
};

/** y_ cases that are valid JSON syntax but break a hooks.json document rule (duplicate keys). */
const Y_REJECTED_BY_DOCUMENT_RULES = new Set([
  "y_object_duplicated_key.json",
  "y_object_duplicated_key_and_value.json",
]);

function accepts(bytes: Uint8Array, mode: "strict" | "jsonc" = "strict"): boolean {
  try {
    parseJsonBytes(bytes, mode);
    return true;
  } catch (err) {
    if (err instanceof HooksJsonError) return false;
    throw err; // a crash (stack overflow, TypeError) is a bug, never a rejection
  }
}

describe.skipIf(!present)("JSONTestSuite test_parsing, strict mode", () => {
  const files = present ? readdirSync(SUITE).filter((f) => f.endsWith(".json")) : [];
  const read = (f: string) => new Uint8Array(readFileSync(join(SUITE, f)));

  // Red if any y_ file is rejected (other than the duplicate-key policy cases below).
  it("accepts every y_ file", () => {
    const wrong = files
      .filter((f) => f.startsWith("y_") && !Y_REJECTED_BY_DOCUMENT_RULES.has(f))
      .filter((f) => !accepts(read(f)));
    expect(wrong).toEqual([]);
  });

  // Red if duplicate keys slip through: the suite calls them valid JSON, hooks.json does not.
  it("rejects the duplicate-key y_ files as a documented policy, with kind parse", () => {
    for (const f of Y_REJECTED_BY_DOCUMENT_RULES) {
      expect(() => parseJsonBytes(read(f), "strict")).toThrow(/same object key twice/);
    }
  });

  // Red if any n_ file is accepted or crashes the parser.
  it("rejects every n_ file", () => {
    const wrong = files.filter((f) => f.startsWith("n_")).filter((f) => accepts(read(f)));
    expect(wrong).toEqual([]);
  });

  // Red if a new i_ file appears without a decision, or a decision is not what the parser does.
  it("decides every i_ file as the committed table says", () => {
    const iFiles = files.filter((f) => f.startsWith("i_")).sort();
    expect(iFiles).toEqual(Object.keys(I_DECISIONS).sort());
    const actual = Object.fromEntries(
      iFiles.map((f) => [f, accepts(read(f)) ? "accept" : "reject"]),
    );
    expect(actual).toEqual(I_DECISIONS);
  });

  // Red if the hooks document layer accepted something the strict grammar rejects.
  it("parseHooksDocument never accepts an n_ file", () => {
    for (const f of files.filter((x) => x.startsWith("n_"))) {
      expect(() => parseHooksDocument(read(f), { mode: "strict" })).toThrow(HooksJsonError);
    }
  });

  // Red if JSONC mode were more lenient than "JSON + comments + trailing commas".
  it("in JSONC mode accepts exactly the n_ files that are comments or trailing commas", () => {
    const jsoncOnly = [
      "n_array_extra_comma.json",
      "n_array_number_and_comma.json",
      "n_object_trailing_comma.json",
      "n_object_trailing_comment.json",
      "n_object_trailing_comment_slash_open.json",
      "n_structure_object_with_comment.json",
    ];
    const accepted = files
      .filter((f) => f.startsWith("n_"))
      .filter((f) => accepts(read(f), "jsonc"));
    expect(accepted.sort()).toEqual(jsoncOnly);
  });

  // Red if the tree decoded any string, escape, key or number differently from JSON.parse.
  it("decodes every y_ file to the same value as JSON.parse", () => {
    for (const f of files.filter(
      (x) => x.startsWith("y_") && !Y_REJECTED_BY_DOCUMENT_RULES.has(x),
    )) {
      const bytes = read(f);
      expect(toJs(parseJsonBytes(bytes, "strict").root), f).toEqual(
        JSON.parse(new TextDecoder().decode(bytes)),
      );
    }
  });
});
