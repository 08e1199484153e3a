import { createScanner } from "jsonc-parser";
import { REMAINDER_DOMAIN, canonicalJson, digest, entryDigest } from "./canonical.js";
import { ConflictError, InvalidRequestError, positionOf } from "./errors.js";
import { type HooksDocument, commandOf } from "./document.js";
import type { JsonValue } from "./parse.js";
import {
  type OwnershipReceipt,
  type ReceiptEntry,
  type EntryPairs,
  entryPairs,
  specDigest,
} from "./receipt.js";
import { T } from "./tokens.js";

/**
 * Proving ownership in a parsed document: finding each receipted entry by full content, and
 * the remainder digest (the document minus every owned entry).
 */

export interface Located {
  entry: ReceiptEntry;
  /** The entry node in the current document; undefined when missing (repair only). */
  node: JsonValue | undefined;
  command: string;
}

interface EntryRef {
  event: string;
  node: JsonValue;
}

export function allEntries(doc: HooksDocument | null): EntryRef[] {
  return (doc?.events ?? []).flatMap((slot) =>
    slot.array.items.map((node) => ({ event: slot.name, node })),
  );
}

export function posOf(doc: HooksDocument, node: JsonValue) {
  return positionOf(doc.doc.text, node.start);
}

/**
 * Find each receipted entry: exactly one full-content match under its event, and its command
 * nowhere else. With allowMissing (repair), an entry whose command appears nowhere is reported
 * as missing instead of throwing.
 */
export function locateOwned(
  doc: HooksDocument | null,
  receipt: OwnershipReceipt,
  allowMissing: boolean,
): Located[] {
  const entries = allEntries(doc);
  const digests = new Map<JsonValue, string>();
  const digestOf = (node: JsonValue) => {
    let d = digests.get(node);
    if (d === undefined) digests.set(node, (d = entryDigest(node)));
    return d;
  };
  const commands = new Set<string>();
  return receipt.entries.map((entry) => {
    let pairs: EntryPairs;
    try {
      pairs = entryPairs(entry.spec, receipt.grammar, receipt.scope);
    } catch {
      throw new InvalidRequestError("invalid-receipt");
    }
    // The receipt binds its spec to its digest: a receipt invented around edited config fails.
    if (specDigest(pairs) !== entry.entryDigest) throw new ConflictError("receipt-spec-mismatch");
    const command = pairs[0]![1] as string;
    // Two receipt entries with one command would both claim the same document entry.
    if (commands.has(command)) throw new InvalidRequestError("invalid-receipt");
    commands.add(command);
    const matches = entries.filter(
      (e) => e.event === entry.event && digestOf(e.node) === entry.entryDigest,
    );
    const sameCommand = entries.filter((e) => commandOf(e.node) === command);
    if (matches.length > 1)
      throw new ConflictError("owned-entry-duplicated", posOf(doc!, matches[1]!.node));
    if (matches.length === 1) {
      const other = sameCommand.find((e) => e.node !== matches[0]!.node);
      if (other) throw new ConflictError("foreign-command-collision", posOf(doc!, other.node));
      // A comment written inside an owned entry is the user's: removing or rewriting the entry
      // would lose it, so it counts as an edit (digests ignore comments, so check separately).
      if (hasComment(doc!.doc.text, matches[0]!.node)) {
        throw new ConflictError("owned-entry-edited", posOf(doc!, matches[0]!.node));
      }
      return { entry, node: matches[0]!.node, command };
    }
    if (sameCommand.length > 0)
      throw new ConflictError("owned-entry-edited", posOf(doc!, sameCommand[0]!.node));
    if (!allowMissing) throw new ConflictError("owned-entry-missing");
    return { entry, node: undefined, command };
  });
}

/**
 * Digest of the document with every owned entry taken out. Normalised only where AIC's own
 * edits leave traces: an owned event's now-empty array, an empty `hooks` object, and a
 * `version: 1` AIC created. A missing file counts as `{}`. Foreign empty events stay significant.
 */
export function remainderDigestOf(
  doc: HooksDocument | null,
  ownedNodes: Set<JsonValue>,
  ownedEvents: Set<string>,
  created: Set<string>,
): string {
  if (!doc) return digest(REMAINDER_DOMAIN, "{}");
  const skip = (node: JsonValue) => ownedNodes.has(node);
  const parts: Array<[string, string]> = [];
  for (const m of doc.root.members) {
    const key = m.key.value;
    if (
      key === "version" &&
      created.has("version") &&
      m.value.type === "number" &&
      m.value.text === "1"
    )
      continue;
    if (key === "hooks" && m.value.type === "object") {
      const events: Array<[string, string]> = [];
      for (const slot of doc.events) {
        const kept = slot.array.items.filter((n) => !skip(n));
        if (kept.length === 0 && ownedEvents.has(slot.name)) continue;
        events.push([slot.name, canonicalJson(slot.array, skip)]);
      }
      if (events.length === 0) continue;
      parts.push([key, objectOf(events)]);
      continue;
    }
    parts.push([key, canonicalJson(m.value)]);
  }
  return digest(REMAINDER_DOMAIN, objectOf(parts));
}

function objectOf(parts: Array<[string, string]>): string {
  const sorted = [...parts].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return `{${sorted.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`;
}

function hasComment(text: string, node: JsonValue): boolean {
  const scanner = createScanner(text.slice(node.start, node.end), false);
  for (let kind = scanner.scan(); kind !== T.EOF; kind = scanner.scan()) {
    if (kind === T.LineComment || kind === T.BlockComment) return true;
  }
  return false;
}
