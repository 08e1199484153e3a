import fc from "fast-check";
import { createScanner } from "jsonc-parser";
import { describe, expect, it } from "vitest";
import {
  CURSOR_HOOK_EVENTS,
  ConflictError,
  HooksJsonError,
  type OwnedEntrySpec,
  type ParseMode,
  parseJsonText,
  planOwnedEntries,
  removeOwnedEntries,
  repairOwnedEntries,
  verifyOwned,
} from "../../src/hooks-json/index.js";
import type { JsonObject, JsonValue } from "../../src/hooks-json/parse.js";
import { dec, enc, toJs } from "./helpers.js";

/**
 * Property tests over generated hooks.json documents full of foreign content: comments,
 * odd whitespace, number lexemes, escapes, lone surrogates, NFD text, unknown events and
 * top-level keys, empty containers, trailing commas.
 */

const RUNS = { numRuns: Number(process.env.HOOKS_JSON_PROPERTY_RUNS ?? 150) };

const ws = (mode: ParseMode) =>
  fc.constantFrom(
    "",
    " ",
    "\n",
    "\n  ",
    "\n\t\t",
    "\r\n    ",
    ...(mode === "jsonc" ? [" /* c */ ", " // note\n  ", "/**/"] : []),
  );

const numberText = fc.constantFrom(
  "0",
  "-0",
  "1",
  "1.50",
  "1e400",
  "-2.5E-3",
  "12345678901234567890123",
);
const stringText = fc
  .tuple(
    fc.string({ maxLength: 8 }),
    fc.constantFrom("", "\\u00e9", "e\u0301", "\\ud800", "\\/", "\\n", "ü"),
  )
  .map(([s, extra]) => JSON.stringify(s).slice(0, -1) + extra + '"');
const scalarText = fc.oneof(numberText, stringText, fc.constantFrom("true", "false", "null"));

function objectText(mode: ParseMode, members: fc.Arbitrary<Array<[string, string]>>) {
  return fc
    .tuple(members, fc.array(ws(mode), { minLength: 12, maxLength: 12 }), fc.boolean())
    .map(([ms, w, trailing]) => {
      const body = ms.map(
        ([k, v], i) => `${w[i % 12]}${JSON.stringify(k)}${w[(i + 3) % 12]}:${w[(i + 5) % 12]}${v}`,
      );
      const comma = mode === "jsonc" && trailing && ms.length > 0 ? "," : "";
      return `{${body.join(",")}${comma}${w[11]}}`;
    });
}

const foreignEntry = (mode: ParseMode) =>
  objectText(
    mode,
    fc.tuple(fc.nat(50), fc.option(numberText), fc.option(stringText)).map(([n, t, m]) => {
      const ms: Array<[string, string]> = [["command", JSON.stringify(`./foreign-${n}.sh`)]];
      if (t !== null) ms.push(["timeout", t]);
      if (m !== null) ms.push(["matcher", m]);
      return ms;
    }),
  );

const eventArray = (mode: ParseMode) =>
  fc
    .tuple(fc.array(foreignEntry(mode), { maxLength: 3 }), ws(mode), ws(mode))
    .map(([entries, a, b]) =>
      entries.length === 0 ? `[${a}]` : `[${a}${entries.join(`,${b}`)}${b}]`,
    );

const hooksObject = (mode: ParseMode) =>
  objectText(
    mode,
    fc.uniqueArray(
      fc.tuple(fc.constantFrom(...CURSOR_HOOK_EVENTS.slice(0, 8), "futureEvent"), eventArray(mode)),
      {
        maxLength: 5,
        selector: ([k]) => k,
      },
    ),
  );

/** A whole foreign document: optional version, optional hooks, other top-level keys. */
const documentText = (mode: ParseMode) =>
  fc
    .tuple(
      fc.option(fc.constantFrom("1", "1.0", "1e0")),
      fc.option(hooksObject(mode)),
      fc.uniqueArray(fc.tuple(fc.constantFrom("$schema", "note", "x", "ünï", "a\\b"), scalarText), {
        maxLength: 3,
        selector: ([k]) => k,
      }),
      ws(mode),
      fc.boolean(),
    )
    .chain(([version, hooks, extra, lead, trailingNewline]) =>
      fc
        .shuffledSubarray(
          [
            ...(version !== null ? [["version", version] as [string, string]] : []),
            ...(hooks !== null ? [["hooks", hooks] as [string, string]] : []),
            ...extra,
          ],
          { minLength: 0 },
        )
        .chain((members) =>
          objectText(mode, fc.constant(members)).map(
            (t) => `${lead}${t}${trailingNewline ? "\n" : ""}`,
          ),
        ),
    );

const DESIRED: OwnedEntrySpec[] = [
  { event: "sessionStart", argv: ["node", ".cursor/hooks/AIC-session-init.cjs"] },
  {
    event: "sessionStart",
    argv: ["node", ".cursor/hooks/AIC-compile-context.cjs"],
    fields: { timeout: 20 },
  },
  {
    event: "preToolUse",
    argv: ["node", ".cursor/hooks/AIC-require.cjs"],
    fields: { failClosed: true },
  },
  { event: "stop", argv: ["node", ".cursor/hooks/AIC stop's.cjs"], fields: { loop_limit: 5 } },
  { event: "preCompact", argv: ["node", ".cursor/hooks/AIC-pre-compact.cjs"] },
];
const desiredSubset = fc.subarray(DESIRED, { minLength: 1 });

const install = (text: string, desired: OwnedEntrySpec[], mode: ParseMode) =>
  planOwnedEntries({ bytes: enc(text), desired, grammar: "posix", mode });

/** Owned entries run `node ...`; generated foreign ones run `./foreign-N.sh`. */
function isOwned(n: JsonValue): boolean {
  if (n.type !== "object") return false;
  const command = n.members.find((m) => m.key.value === "command")?.value;
  return command?.type === "string" && command.value.startsWith("node ");
}

/** Owned entry nodes (by command prefix, which foreign entries never use) in a document. */
function ownedNodes(text: string, mode: ParseMode): JsonObject[] {
  const root = parseJsonText(text, mode).root as JsonObject;
  const hooks = root.members.find((m) => m.key.value === "hooks")!.value as JsonObject;
  return hooks.members.flatMap((m) =>
    (m.value.type === "array" ? m.value.items : []).filter((n): n is JsonObject => isOwned(n)),
  );
}

/** Scalars outside owned entries, except the root `version` (changing it is not "unrelated"). */
function foreignNodes(text: string, mode: ParseMode): JsonValue[] {
  const out: JsonValue[] = [];
  const walk = (n: JsonValue) => {
    if (isOwned(n)) return;
    if (n.type === "object") n.members.forEach((m) => walk(m.value));
    else if (n.type === "array") n.items.forEach(walk);
    else out.push(n);
  };
  const root = parseJsonText(text, mode).root as JsonObject;
  root.members.filter((m) => m.key.value !== "version").forEach((m) => walk(m.value));
  return out;
}

const splice = (text: string, from: number, to: number, insert: string) =>
  text.slice(0, from) + insert + text.slice(to);

describe.each(["jsonc", "strict"] as const)("properties (%s)", (mode) => {
  // Red if any foreign byte differs after install + remove (whitespace, comments, lexemes, order).
  it("install then remove returns the original bytes", () => {
    fc.assert(
      fc.property(documentText(mode), desiredSubset, (text, desired) => {
        const installed = install(text, desired, mode);
        const removed = removeOwnedEntries({
          bytes: installed.bytes,
          receipt: installed.receipt,
          mode,
        });
        expect(dec(removed.bytes)).toBe(text);
      }),
      RUNS,
    );
  });

  // Red if a repeat install rewrote anything.
  it("a second install is a byte-for-byte no-op", () => {
    fc.assert(
      fc.property(documentText(mode), desiredSubset, (text, desired) => {
        const first = install(text, desired, mode);
        const second = planOwnedEntries({
          bytes: first.bytes,
          receipt: first.receipt,
          desired,
          grammar: "posix",
          mode,
        });
        expect(second.changed).toBe(false);
        expect(second.bytes).toEqual(first.bytes);
      }),
      RUNS,
    );
  });

  // Red if some edit of an owned entry went unnoticed by verify and by the next plan.
  it("detects any change to an owned entry", () => {
    const edits = fc.constantFrom(
      (s: string) => s.replace(/"command"(\s*):(\s*)"/, '"command"$1:$2"x'),
      (s: string) => s.replace(/^\{/, '{"extra": 1,'),
      (s: string) => s.replace(/^\{/, '{"command2": "node",'),
      (s: string) => s.replace(/\s*\}$/, ', "zz": 1}'),
      (s: string) => s.replace(/"command"/, '"Command"'),
    );
    fc.assert(
      fc.property(
        documentText(mode),
        desiredSubset,
        fc.nat(),
        edits,
        (text, desired, pick, edit) => {
          const installed = install(text, desired, mode);
          const out = dec(installed.bytes);
          const nodes = ownedNodes(out, mode);
          const node = nodes[pick % nodes.length]!;
          const edited = splice(out, node.start, node.end, edit(out.slice(node.start, node.end)));
          expect(edited).not.toBe(out);
          expect(() =>
            verifyOwned({ bytes: enc(edited), receipt: installed.receipt, mode }),
          ).toThrow(ConflictError);
          expect(() =>
            planOwnedEntries({
              bytes: enc(edited),
              receipt: installed.receipt,
              desired,
              grammar: "posix",
              mode,
            }),
          ).toThrow(ConflictError);
        },
      ),
      RUNS,
    );
  });

  // Red if editing foreign content (values, entries, keys, whitespace) ever caused a conflict.
  it("unrelated foreign edits never cause a conflict", () => {
    fc.assert(
      fc.property(
        documentText(mode),
        desiredSubset,
        fc.nat(),
        fc.nat(3),
        (text, desired, pick, kind) => {
          const installed = install(text, desired, mode);
          let out = dec(installed.bytes);
          const root = parseJsonText(out, mode).root as JsonObject;
          const foreign = foreignNodes(out, mode);
          if (kind === 0 && foreign.length > 0) {
            const n = foreign[pick % foreign.length]!;
            out = splice(out, n.start, n.end, n.type === "string" ? '"edited"' : "42");
          } else if (kind === 1) {
            out = splice(out, root.start + 1, root.start + 1, '\n  "addedByUser": [1, 2],');
          } else if (kind === 2) {
            const hooks = root.members.find((m) => m.key.value === "hooks")!.value as JsonObject;
            out = splice(
              out,
              hooks.start + 1,
              hooks.start + 1,
              '"beforeReadFile": [{"command": "./u.sh"}],',
            );
          } else {
            out = out.replace(/\n/g, "\n ");
          }
          const bytes = enc(out);
          expect(verifyOwned({ bytes, receipt: installed.receipt, mode }).owned).toBe(true);
          const again = planOwnedEntries({
            bytes,
            receipt: installed.receipt,
            desired,
            grammar: "posix",
            mode,
          });
          expect(again.changed).toBe(false);
          expect(removeOwnedEntries({ bytes, receipt: installed.receipt, mode }).removed).toBe(
            desired.length,
          );
        },
      ),
      RUNS,
    );
  });

  // Red if an update (different set, changed fields, moved events) left traces after removal.
  it("install A, update to B, remove returns the original bytes", () => {
    const changed = fc.subarray(
      DESIRED.map((d, i) => (i % 2 ? { ...d, fields: { ...d.fields, timeout: 7 } } : d)),
      { minLength: 1 },
    );
    fc.assert(
      fc.property(documentText(mode), desiredSubset, changed, (text, a, b) => {
        const first = install(text, a, mode);
        const second = planOwnedEntries({
          bytes: first.bytes,
          receipt: first.receipt,
          desired: b,
          grammar: "posix",
          mode,
        });
        expect(
          verifyOwned({ bytes: second.bytes, receipt: second.receipt, mode }).remainderUnchanged,
        ).toBe(true);
        const removed = removeOwnedEntries({ bytes: second.bytes, receipt: second.receipt, mode });
        expect(dec(removed.bytes)).toBe(text);
      }),
      RUNS,
    );
  });

  // Red if a lost owned entry could not be repaired when nothing else changed.
  it("repair restores a deleted owned entry when the remainder is unchanged", () => {
    fc.assert(
      fc.property(documentText(mode), desiredSubset, fc.nat(), (text, desired, pick) => {
        const installed = install(text, desired, mode);
        const out = dec(installed.bytes);
        const nodes = ownedNodes(out, mode);
        const node = nodes[pick % nodes.length]!;
        const root = parseJsonText(out, mode).root as JsonObject;
        const hooks = root.members.find((m) => m.key.value === "hooks")!.value as JsonObject;
        const array = hooks.members
          .map((m) => m.value)
          .find((v) => v.type === "array" && v.items.some((n) => n.start === node.start))!;
        const items = array.type === "array" ? array.items : [];
        const i = items.findIndex((n) => n.start === node.start);
        const lost = items[i + 1]
          ? splice(out, node.start, items[i + 1]!.start, "")
          : items[i - 1]
            ? splice(out, items[i - 1]!.end, node.end, "")
            : splice(out, node.start, node.end, "");
        const repaired = repairOwnedEntries({ bytes: enc(lost), receipt: installed.receipt, mode });
        expect(repaired.actions.added).toBe(1);
        expect(
          verifyOwned({ bytes: repaired.bytes, receipt: repaired.receipt, mode })
            .remainderUnchanged,
        ).toBe(true);
      }),
      RUNS,
    );
  });

  // Red if removing or updating owned entries ever deleted a comment, wherever it was put.
  it.runIf(mode === "jsonc")("comments added anywhere survive update and removal", () => {
    fc.assert(
      fc.property(
        documentText(mode),
        desiredSubset,
        fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
        fc.constantFrom("/*KEEP*/", "//KEEP\n"),
        (text, desired, picks, comment) => {
          const installed = install(text, desired, mode);
          let out = dec(installed.bytes);
          const baseline = out.split("KEEP").length - 1;
          // Outside owned entries: a comment inside one is an edit (see the unit test).
          const owned = ownedNodes(out, mode);
          const boundaries = tokenEnds(out).filter(
            (at) => !owned.some((n) => at > n.start && at < n.end),
          );
          const chosen = [...new Set(picks.map((p) => boundaries[p % boundaries.length]!))].sort(
            (a, b) => b - a,
          );
          for (const at of chosen) out = splice(out, at, at, comment);
          const count = (s: string) => s.split("KEEP").length - 1 - baseline;
          const bytes = enc(out);
          const updated = planOwnedEntries({
            bytes,
            receipt: installed.receipt,
            desired: desired.slice(1),
            grammar: "posix",
            mode,
          });
          expect(count(dec(updated.bytes))).toBe(chosen.length);
          const removed = removeOwnedEntries({ bytes, receipt: installed.receipt, mode });
          expect(count(dec(removed.bytes))).toBe(chosen.length);
          expect(() => parseJsonText(dec(removed.bytes), mode)).not.toThrow();
        },
      ),
      RUNS,
    );
  });

  // Red if some malformed input crashed (TypeError, RangeError, stack overflow) instead of
  // being refused with a typed error, or if an accepted mutant did not round-trip.
  it("mutated documents are either refused with a typed error or round-trip", () => {
    const mutation = fc.tuple(
      fc.nat(),
      fc.nat(3),
      fc.constantFrom(
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        '"',
        "\\",
        "/",
        "*",
        "\n",
        "x",
        "1",
        "\u00e9",
        "\ud800",
      ),
    );
    fc.assert(
      fc.property(
        documentText(mode),
        desiredSubset,
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        (text, desired, muts) => {
          let mutant = text;
          for (const [pos, op, ch] of muts) {
            const at = pos % (mutant.length + 1);
            mutant =
              op === 0
                ? splice(mutant, at, at + 1, "")
                : splice(mutant, at, op === 1 ? at : at + 1, ch);
          }
          let installed;
          try {
            installed = install(mutant, desired, mode);
          } catch (err) {
            expect(err).toBeInstanceOf(HooksJsonError);
            return;
          }
          const removed = removeOwnedEntries({
            bytes: installed.bytes,
            receipt: installed.receipt,
            mode,
          });
          expect(removed.bytes).toEqual(enc(mutant));
        },
      ),
      RUNS,
    );
  });

  // Red if a formatter rewriting the whole file (new indentation, no comments, re-escaped
  // strings, normalised numbers) broke ownership of entries whose content it kept.
  it("a whole-file reformat keeps ownership", () => {
    fc.assert(
      fc.property(
        documentText(mode),
        desiredSubset,
        fc.constantFrom(0, 1, 4, "\t"),
        (text, desired, indent) => {
          const installed = install(text, desired, mode);
          const value = toJs(parseJsonText(dec(installed.bytes), mode).root);
          const reformatted = enc(JSON.stringify(value, null, indent));
          expect(verifyOwned({ bytes: reformatted, receipt: installed.receipt, mode }).owned).toBe(
            true,
          );
          const again = planOwnedEntries({
            bytes: reformatted,
            receipt: installed.receipt,
            desired,
            grammar: "posix",
            mode,
          });
          expect(again.changed).toBe(false);
        },
      ),
      RUNS,
    );
  });
});

/** Offsets right after each token: places a comment may go without changing meaning. */
function tokenEnds(text: string): number[] {
  const scanner = createScanner(text, true);
  const ends: number[] = [];
  for (let kind = scanner.scan(); kind !== 17; kind = scanner.scan()) {
    ends.push(scanner.getTokenOffset() + scanner.getTokenLength());
  }
  return ends;
}
