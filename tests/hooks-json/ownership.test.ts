import { describe, expect, it } from "vitest";
import {
  AbsenceUnprovenError,
  ConflictError,
  type OwnedEntrySpec,
  type OwnershipReceipt,
  type PlanResult,
  LIMITS,
  parseHooksDocument,
  planOwnedEntries,
  removeOwnedEntries,
  repairOwnedEntries,
  verifyOwned,
} from "../../src/hooks-json/index.js";
import { HOOK_REGISTRATIONS } from "../../src/integrations/cursor/manifest.js";
import { dec, enc, errorOf } from "./helpers.js";

const STOP: OwnedEntrySpec = {
  event: "stop",
  argv: ["node", ".cursor/hooks/AIC-stop.cjs"],
  fields: { loop_limit: 5 },
};
const START: OwnedEntrySpec = {
  event: "sessionStart",
  argv: ["node", ".cursor/hooks/AIC-init.cjs"],
};
const CMD_STOP = "node .cursor/hooks/AIC-stop.cjs";

const FOREIGN = `{
  // team hooks: keep this comment
  "version": 1,
  "hooks": {
    "stop": [
      { "command": "./audit.sh", "timeout": 1.50 }
    ],
    "afterFileEdit": [],
    "unknownFutureEvent": [{ "command": "x" }]
  },
  "note": "caf\\u00e9 e\u0301 \\ud800",
}
`;

function install(
  bytes: string | Uint8Array,
  desired = [STOP, START],
  receipt?: OwnershipReceipt | null,
): PlanResult {
  return planOwnedEntries({
    bytes: typeof bytes === "string" ? enc(bytes) : bytes,
    receipt,
    desired,
    grammar: "posix",
  });
}

describe("install", () => {
  // Red if foreign bytes (comments, numbers, escapes, unknown events, trailing comma) changed.
  it("adds owned entries and keeps every foreign byte", () => {
    const r = install(FOREIGN);
    const out = dec(r.bytes);
    expect(r.changed).toBe(true);
    expect(r.actions).toEqual({ kept: 0, added: 2, updated: 0, removed: 0 });
    expect(out).toContain("// team hooks: keep this comment");
    expect(out).toContain('{ "command": "./audit.sh", "timeout": 1.50 },');
    expect(out).toContain('"note": "caf\\u00e9 e\u0301 \\ud800",');
    expect(removeOwnedEntries({ bytes: r.bytes, receipt: r.receipt }).bytes).toEqual(enc(FOREIGN));
  });

  // Red if AIC's entries were spliced in before a comment the user wrote after their last entry:
  // the comment would then annotate AIC's entry (first-install QA). Removal is the exact inverse.
  it("keeps a same-line comment on the user's entry it annotates, and removes back to the bytes", () => {
    const two = [START, { ...START, argv: ["node", ".cursor/hooks/AIC-2.cjs"] }];
    const cases = [
      ['{ "command": "./greet.sh" } // greets', '{ "command": "./greet.sh" }, // greets'],
      ['{ "command": "./greet.sh" }, // greets', '{ "command": "./greet.sh" }, // greets'],
      [
        '{ "command": "./greet.sh" } /* a */ /* b */',
        '{ "command": "./greet.sh" }, /* a */ /* b */',
      ],
    ];
    for (const [line, kept] of cases) {
      for (const nl of ["\n", "\r\n"]) {
        const text = `{${nl}  "version": 1,${nl}  "hooks": {${nl}    "sessionStart": [${nl}      ${line}${nl}    ]${nl}  }${nl}}${nl}`;
        const r = install(text, two);
        const out = dec(r.bytes);
        expect(out).toContain(
          `      ${kept}${nl}      { "command": "node .cursor/hooks/AIC-init.cjs" },${nl}`,
        );
        expect(() => parseHooksDocument(r.bytes)).not.toThrow();
        expect(verifyOwned({ bytes: r.bytes, receipt: r.receipt }).owned).toBe(true);
        expect(install(r.bytes, two, r.receipt).changed).toBe(false);
        const updated = install(
          r.bytes,
          [...two, { ...START, argv: ["node", ".cursor/hooks/AIC-3.cjs"] }],
          r.receipt,
        );
        for (const done of [r, updated])
          expect(dec(removeOwnedEntries({ bytes: done.bytes, receipt: done.receipt }).bytes)).toBe(
            text,
          );
      }
    }
  });

  // Red if a repeated install rewrote anything or returned the caller's own buffer.
  it("is a byte-for-byte no-op the second time and never mutates its input", () => {
    const first = install(FOREIGN);
    const input = first.bytes.slice();
    const second = install(first.bytes, [STOP, START], first.receipt);
    expect(second.changed).toBe(false);
    expect(second.bytes).toEqual(first.bytes);
    expect(second.bytes).not.toBe(first.bytes);
    expect(first.bytes).toEqual(input);
    expect(second.actions).toEqual({ kept: 2, added: 0, updated: 0, removed: 0 });
  });

  // Red if a missing file were not created with version 1, or not removed back to nothing.
  it("creates a missing file with version 1 and removal makes it absent again", () => {
    const r = install(new Uint8Array());
    expect(JSON.parse(dec(r.bytes))).toEqual({
      version: 1,
      hooks: {
        stop: [{ command: CMD_STOP, loop_limit: 5 }],
        sessionStart: [{ command: "node .cursor/hooks/AIC-init.cjs" }],
      },
    });
    expect(removeOwnedEntries({ bytes: r.bytes, receipt: r.receipt }).bytes).toHaveLength(0);
  });

  // Red if `version` were not ensured, or an existing native spelling were rewritten.
  it("adds version 1 when absent and keeps 1.0 as written", () => {
    expect(JSON.parse(dec(install('{"hooks":{}}').bytes)).version).toBe(1);
    expect(dec(install('{"version": 1.0}').bytes)).toContain('"version": 1.0');
  });

  // Red if an identical command AIC does not own were adopted or duplicated (any event, any fields).
  it("refuses when a foreign entry already runs the same command", () => {
    const doc = `{"hooks":{"afterFileEdit":[{"command":${JSON.stringify(CMD_STOP)},"timeout":9}]}}`;
    const err = errorOf(() => install(doc));
    expect(err).toBeInstanceOf(ConflictError);
    expect(err.code).toBe("foreign-command-collision");
    expect(err.message).not.toContain("AIC-stop");
  });

  // Red if the one-line document style were broken by multi-line insertions.
  it("follows the document's layout: tabs, four spaces, CRLF and one-line files", () => {
    const tabs = dec(
      install(
        '{\n\t"hooks": {\n\t\t"stop": [\n\t\t\t{\n\t\t\t\t"command": "a"\n\t\t\t}\n\t\t]\n\t}\n}\n',
        [STOP],
      ).bytes,
    );
    expect(tabs).toContain(
      `\t\t\t},\n\t\t\t{\n\t\t\t\t"command": "${CMD_STOP}",\n\t\t\t\t"loop_limit": 5\n\t\t\t}\n`,
    );
    // entries written one per line stay one per line
    const oneLineEntries = dec(
      install('{\n  "hooks": {\n    "stop": [\n      {"command": "a"}\n    ]\n  }\n}\n', [STOP])
        .bytes,
    );
    expect(oneLineEntries).toContain(
      `{"command": "a"},\n      { "command": "${CMD_STOP}", "loop_limit": 5 }\n    ]`,
    );
    const four = dec(install('{\n    "version": 1\n}\n', [STOP]).bytes);
    expect(four).toContain(
      '\n    "hooks": {\n        "stop": [\n            {\n                "command"',
    );
    const crlf = dec(install('{\r\n  "version": 1\r\n}\r\n', [STOP]).bytes);
    expect(crlf.replace(/\r\n/g, "")).not.toContain("\n");
    const oneLine = dec(install('{"version":1,"hooks":{"stop":[]}}', [STOP]).bytes);
    expect(oneLine).toBe(
      `{"version":1,"hooks":{"stop":[{ "command": "${CMD_STOP}", "loop_limit": 5 }]}}`,
    );
  });

  // Red if an unknown event in the file were rewritten, refused or not reported.
  it("leaves unknown events alone and reports them as warnings", () => {
    const r = install(FOREIGN);
    expect(r.warnings.map((w) => w.code)).toEqual(["unknown-event"]);
    expect(dec(r.bytes)).toContain('"unknownFutureEvent": [{ "command": "x" }]');
  });

  // Red if AIC could write an event Cursor does not know, or two entries with one command.
  it("refuses unknown desired events and duplicate desired commands", () => {
    const bad = { event: "onStop", argv: ["x"] } as unknown as OwnedEntrySpec;
    expect(errorOf(() => install("{}", [bad])).code).toBe("unknown-event");
    expect(errorOf(() => install("{}", [STOP, { ...STOP, event: "preCompact" }])).code).toBe(
      "duplicate-desired-command",
    );
  });

  // Red if an entry field could override the command or hold a non-JSON number.
  it("refuses invalid entry fields", () => {
    for (const fields of [{ command: "x" }, { timeout: Number.NaN }, { timeout: Infinity }]) {
      const spec = { ...STOP, fields } as unknown as OwnedEntrySpec;
      expect(errorOf(() => install("{}", [spec])).code).toBe("invalid-field");
    }
  });

  // Red if an install could write a file the next run refuses to read (output over 4 MiB).
  it("refuses when the result would exceed the size limit", () => {
    const near = `{"note": "${"x".repeat(LIMITS.maxBytes - 20)}"}`;
    expect(() => parseHooksDocument(enc(near))).not.toThrow();
    expect(errorOf(() => install(near, [STOP])).code).toBe("too-large");
  });

  // Red if a refusal produced partial output or changed the caller's bytes.
  it("a refusal throws before producing anything and leaves the input intact", () => {
    const bytes = enc('{"hooks": {"stop": {}}}');
    const copy = bytes.slice();
    expect(errorOf(() => install(bytes)).kind).toBe("unsupported");
    expect(bytes).toEqual(copy);
  });

  // Red if the installer's real registration set (13 entries, 11 events) did not round-trip.
  it("installs and removes the full AIC manifest around foreign content", () => {
    const desired: OwnedEntrySpec[] = HOOK_REGISTRATIONS.map((r) => ({
      event: r.event,
      argv: ["node", `.cursor/hooks/${r.script}`],
      fields: r.fields ?? {},
    }));
    const r = install(FOREIGN, desired);
    expect(r.receipt.entries).toHaveLength(13);
    expect(new Set(r.receipt.entries.map((e) => e.event)).size).toBe(11);
    expect(install(r.bytes, desired, r.receipt).changed).toBe(false);
    expect(dec(removeOwnedEntries({ bytes: r.bytes, receipt: r.receipt }).bytes)).toBe(FOREIGN);
  });
});

describe("identity by full content", () => {
  // Red if ownership were decided by a file-name pattern (e.g. anything running AIC-*.cjs).
  it("never treats a look-alike foreign entry as owned", () => {
    const lookAlike = `{"hooks":{"stop":[{"command":"${CMD_STOP} --mine"},{"command":"node .cursor/hooks/AIC-init.cjs2"}]}}\n`;
    const r = install(lookAlike, [STOP, START]);
    expect(r.actions.added).toBe(2);
    const removed = removeOwnedEntries({ bytes: r.bytes, receipt: r.receipt });
    expect(dec(removed.bytes)).toBe(lookAlike);
  });

  // Red if any refusal message quoted the file's content.
  it("never echoes document content in error messages", () => {
    const marker = "SECRET-MARKER";
    const bad = [
      `{"${marker}": tru}`,
      `{"${marker}":1,"${marker}":2}`,
      `{"hooks":{"${marker}":{}}}`,
      `{"version":"${marker}"}`,
      `{"hooks":{"stop":[{"command":${JSON.stringify(CMD_STOP)},"${marker}":1}]}}`,
    ];
    for (const doc of bad) {
      const err = errorOf(() => install(doc, [STOP]));
      expect(err.message).not.toContain(marker);
      expect(JSON.stringify(err)).not.toContain(marker);
    }
  });
});

describe("ownership checks with a receipt", () => {
  const base = () => install(FOREIGN);

  // Red if an edited owned entry (any field, including an added unknown field) were overwritten.
  it.each([
    ["a changed field", (s: string) => s.replace('"loop_limit": 5', '"loop_limit": 6')],
    [
      "an added field",
      (s: string) => s.replace('"loop_limit": 5', '"loop_limit": 5, "extra": true'),
    ],
    ["a changed command", (s: string) => s.replace(CMD_STOP, `${CMD_STOP} --x`)],
  ])("detects %s in an owned entry", (_label, edit) => {
    const r = base();
    const edited = enc(edit(dec(r.bytes)));
    const err = errorOf(() => install(edited, [STOP, START], r.receipt));
    expect(err).toBeInstanceOf(ConflictError);
    expect(["owned-entry-edited", "owned-entry-missing"]).toContain(err.code);
    expect(() => verifyOwned({ bytes: edited, receipt: r.receipt })).toThrow(ConflictError);
  });

  // Red if removing an owned entry could silently delete a comment the user wrote inside it.
  it("treats a comment inside an owned entry as an edit", () => {
    const r = base();
    const commented = enc(dec(r.bytes).replace('"loop_limit": 5', '"loop_limit": 5 /* why */'));
    expect(errorOf(() => removeOwnedEntries({ bytes: commented, receipt: r.receipt })).code).toBe(
      "owned-entry-edited",
    );
    expect(errorOf(() => verifyOwned({ bytes: commented, receipt: r.receipt })).code).toBe(
      "owned-entry-edited",
    );
  });

  // Red if an owned entry moved to another event still counted as owned.
  it("treats an owned entry moved to another event as edited", () => {
    const r = install('{"hooks":{"preCompact":[]}}', [STOP]);
    const moved =
      '{"hooks":{"preCompact":[{"command":"node .cursor/hooks/AIC-stop.cjs","loop_limit":5}]},"version":1}';
    expect(errorOf(() => verifyOwned({ bytes: enc(moved), receipt: r.receipt })).code).toBe(
      "owned-entry-edited",
    );
  });

  // Red if a duplicated owned entry or a copy of its command elsewhere were tolerated.
  it("detects duplicates and cross-event copies of an owned command", () => {
    const r = install('{"version":1,"hooks":{"stop":[],"preCompact":[]}}', [STOP]);
    const entry = `{"command":"${CMD_STOP}","loop_limit":5}`;
    const dup = `{"version":1,"hooks":{"stop":[${entry},${entry}],"preCompact":[]}}`;
    expect(errorOf(() => verifyOwned({ bytes: enc(dup), receipt: r.receipt })).code).toBe(
      "owned-entry-duplicated",
    );
    const cross = `{"version":1,"hooks":{"stop":[${entry}],"preCompact":[{"command":"${CMD_STOP}"}]}}`;
    expect(errorOf(() => verifyOwned({ bytes: enc(cross), receipt: r.receipt })).code).toBe(
      "foreign-command-collision",
    );
  });

  // Red if whitespace/escape-only rewrites of an owned entry (e.g. by a formatter) broke ownership.
  it("keeps ownership through reformatting and equivalent escapes", () => {
    const r = base();
    const reformatted = JSON.stringify(
      JSON.parse(
        dec(r.bytes)
          .replace(/\/\/.*\n/, "")
          .replace(/,\n}/, "\n}")
          .replace("\\ud800", "x"),
      ),
      null,
      3,
    ).replace("AIC-stop", "AIC\\u002dstop");
    expect(verifyOwned({ bytes: enc(reformatted), receipt: r.receipt }).owned).toBe(true);
  });

  // Red if legitimate foreign edits blocked install, or the refreshed remainder were not returned.
  it("allows foreign edits and refreshes the remainder digest even on a byte no-op", () => {
    const r = base();
    const edited = enc(
      dec(r.bytes).replace('"./audit.sh"', '"./audit2.sh"').replace("keep this", "KEEP"),
    );
    expect(verifyOwned({ bytes: edited, receipt: r.receipt }).remainderUnchanged).toBe(false);
    const again = install(edited, [STOP, START], r.receipt);
    expect(again.changed).toBe(false);
    expect(again.bytes).toEqual(edited);
    expect(again.receipt.remainderDigest).not.toBe(r.receipt.remainderDigest);
    expect(verifyOwned({ bytes: edited, receipt: again.receipt }).remainderUnchanged).toBe(true);
  });

  // Red if a receipt could be invented around edited config (spec and digest not bound).
  it("refuses a receipt whose spec does not match its entry digest, and a malformed receipt", () => {
    const r = base();
    const forged: OwnershipReceipt = structuredClone(r.receipt);
    forged.entries[0]!.spec.fields = { loop_limit: 6 };
    expect(errorOf(() => verifyOwned({ bytes: r.bytes, receipt: forged })).code).toBe(
      "receipt-spec-mismatch",
    );
    const malformed = { ...r.receipt, version: 2 } as unknown as OwnershipReceipt;
    expect(errorOf(() => verifyOwned({ bytes: r.bytes, receipt: malformed })).kind).toBe(
      "invalid-request",
    );
    const doubled = { ...r.receipt, entries: [r.receipt.entries[0]!, r.receipt.entries[0]!] };
    expect(errorOf(() => verifyOwned({ bytes: r.bytes, receipt: doubled })).code).toBe(
      "invalid-receipt",
    );
  });
});

describe("update", () => {
  // Red if an update moved the entry, lost its position, or touched its neighbours.
  it("replaces a changed owned entry in place", () => {
    const doc =
      '{\n  "version": 1,\n  "hooks": {\n    "stop": [\n      {"command": "a"}\n    ]\n  }\n}\n';
    const r = install(doc, [STOP]);
    const withAfter = enc(dec(r.bytes).replace(/(\n {4}\])/, ',\n      {"command": "z"}$1'));
    const updated = install(withAfter, [{ ...STOP, fields: { loop_limit: 3 } }], r.receipt);
    expect(updated.actions).toEqual({ kept: 0, added: 0, updated: 1, removed: 0 });
    const stop = JSON.parse(dec(updated.bytes)).hooks.stop;
    // a one-line owned entry stays one line when updated
    const inline = install('{"hooks":{"stop":[{"command":"a"}]}}', [STOP]);
    const inlineUpdated = install(
      inline.bytes,
      [{ ...STOP, fields: { loop_limit: 3 } }],
      inline.receipt,
    );
    expect(dec(inlineUpdated.bytes)).not.toContain("\n");
    expect(stop).toEqual([
      { command: "a" },
      { command: CMD_STOP, loop_limit: 3 },
      { command: "z" },
    ]);
  });

  // Red if stale owned entries under other events survived a shrinking desired set.
  it("removes stale owned entries under any event and containers AIC created", () => {
    const r = install(FOREIGN, [STOP, START]);
    const shrunk = install(r.bytes, [STOP], r.receipt);
    expect(shrunk.actions.removed).toBe(1);
    expect(
      JSON.parse(
        dec(shrunk.bytes)
          .replace(/\/\/.*\n/, "")
          .replace(/,\n}/, "\n}"),
      ).hooks.sessionStart,
    ).toBeUndefined();
    expect(dec(removeOwnedEntries({ bytes: shrunk.bytes, receipt: shrunk.receipt }).bytes)).toBe(
      FOREIGN,
    );
  });

  // Red if an update could take over a foreign entry's command.
  it("refuses an update whose new command a foreign entry already runs", () => {
    const r = install('{"hooks":{"preCompact":[{"command":"node other.cjs"}]}}', [STOP]);
    const err = errorOf(() =>
      install(r.bytes, [{ ...STOP, argv: ["node", "other.cjs"] }], r.receipt),
    );
    expect(err.code).toBe("foreign-command-collision");
  });

  // Red if a missing owned entry were silently re-added instead of pointing to repair.
  it("refuses a plan when an owned entry is missing", () => {
    const r = install(new Uint8Array(), [STOP, START]);
    const gone = enc(dec(r.bytes).replace(/,\n {4}"sessionStart"[\s\S]*?\]/, ""));
    expect(dec(gone)).not.toContain("AIC-init");
    const err = errorOf(() => install(gone, [STOP, START], r.receipt));
    expect(err.code).toBe("owned-entry-missing");
    // The message reaches users through `aic doctor`: it names what they can do, not an API.
    expect(err.message).toMatch(/Installing again puts it back/);
    expect(err.message).not.toMatch(/repair|receipt/i);
  });
});

describe("remove", () => {
  // Red if removal touched foreign empty containers or a second removal succeeded.
  it("keeps foreign containers and conflicts on a second removal", () => {
    const doc = '{"version":1,"hooks":{"stop":[]}}';
    const r = install(doc, [STOP]);
    const removed = removeOwnedEntries({ bytes: r.bytes, receipt: r.receipt });
    expect(dec(removed.bytes)).toBe(doc);
    expect(removed.removed).toBe(1);
    expect(
      errorOf(() => removeOwnedEntries({ bytes: removed.bytes, receipt: r.receipt })).code,
    ).toBe("owned-entry-missing");
  });

  // Red if removal deleted a user's comment that sat inside a container AIC created.
  it("never removes comments, even inside a container AIC created", () => {
    const r = install("{}", [STOP]);
    const commented = enc(dec(r.bytes).replace('"stop": [', '"stop": [ // mine\n'));
    const out = dec(removeOwnedEntries({ bytes: commented, receipt: r.receipt }).bytes);
    expect(out).toContain("// mine");
  });
});

describe("repair", () => {
  const entryRe =
    /,\n {4}"sessionStart": \[\n {6}\{\n {8}"command": "node \.cursor\/hooks\/AIC-init\.cjs"\n {6}\}\n {4}\]/;

  // Red if a lost entry with an unchanged remainder could not be restored.
  it("restores a missing entry when nothing else changed", () => {
    const r = install(new Uint8Array(), [STOP, START]);
    const lost = enc(dec(r.bytes).replace(entryRe, ',\n    "sessionStart": []'));
    expect(dec(lost)).not.toContain("AIC-init");
    const repaired = repairOwnedEntries({ bytes: lost, receipt: r.receipt });
    expect(repaired.actions.added).toBe(1);
    expect(
      verifyOwned({ bytes: repaired.bytes, receipt: repaired.receipt }).remainderUnchanged,
    ).toBe(true);
  });

  // Red if repair re-added an entry after foreign drift (absence not proven).
  it("refuses with AbsenceUnprovenError (a ConflictError) when the remainder drifted", () => {
    const r = install('{\n  "x": 1\n}\n', [STOP, START]);
    const lost = enc(dec(r.bytes).replace(entryRe, "").replace('"x": 1', '"x": 2'));
    expect(dec(lost)).not.toContain("AIC-init");
    const err = errorOf(() => repairOwnedEntries({ bytes: lost, receipt: r.receipt }));
    expect(err).toBeInstanceOf(AbsenceUnprovenError);
    expect(err).toBeInstanceOf(ConflictError);
    expect(err.kind).toBe("absence-unproven");
  });

  // Red if repair accepted drift while everything owned is intact.
  it("refuses drift when every owned entry is intact", () => {
    const r = install('{"x":1}', [STOP]);
    const drift = enc(dec(r.bytes).replace('"x":1', '"x":2'));
    expect(errorOf(() => repairOwnedEntries({ bytes: drift, receipt: r.receipt })).code).toBe(
      "remainder-drift",
    );
  });

  // Red if a changed owned command could be "repaired" into a second entry.
  it("refuses when an owned entry was edited rather than removed", () => {
    const r = install("{}", [STOP]);
    const edited = enc(dec(r.bytes).replace('"loop_limit": 5', '"loop_limit": 9'));
    expect(errorOf(() => repairOwnedEntries({ bytes: edited, receipt: r.receipt })).code).toBe(
      "owned-entry-edited",
    );
  });

  // Red if a deleted file could be recreated when it used to hold foreign content.
  it("recreates a deleted file only if the receipt proves it held nothing foreign", () => {
    const mine = install(new Uint8Array(), [STOP]);
    const back = repairOwnedEntries({ bytes: new Uint8Array(), receipt: mine.receipt });
    expect(back.bytes).toEqual(mine.bytes);
    const theirs = install('{"x":1}', [STOP]);
    expect(() => repairOwnedEntries({ bytes: new Uint8Array(), receipt: theirs.receipt })).toThrow(
      AbsenceUnprovenError,
    );
  });
});
