import { createScanner } from "jsonc-parser";
import { REMAINDER_DOMAIN, canonicalJson, digest, entryDigest } from "./canonical.js";
import type { CommandScope, ShellGrammar } from "./command.js";
import { AbsenceUnprovenError, ConflictError, InvalidRequestError, positionOf } from "./errors.js";
import { type HooksDocument, type HooksWarning, commandOf, parseHooksText } from "./document.js";
import { appendChild, removeChild } from "./edits.js";
import { T } from "./tokens.js";
import {
  DEFAULT_LAYOUT,
  type FieldValue,
  type Layout,
  detectLayout,
  lineIndent,
  renderEntry,
} from "./layout.js";
import {
  type JsonArray,
  type JsonMember,
  type JsonObject,
  type JsonValue,
  type ParseMode,
  decodeUtf8,
} from "./parse.js";
import {
  type OwnedEntrySpec,
  type OwnershipReceipt,
  type ReceiptEntry,
  checkEvent,
  entryPairs,
  parseReceipt,
  sameSpec,
  specDigest,
} from "./receipt.js";

/**
 * Install, Update, Remove, Repair and VerifyOwned over a SET of owned entries. Pure: bytes and
 * a trusted receipt in, desired bytes and a new receipt out. Every refusal throws a typed error
 * before any output exists, so a caller that writes only on success never changes the file.
 */

export interface PlanRequest {
  /** Current hooks.json bytes; an empty array means the file does not exist. Never mutated. */
  bytes: Uint8Array;
  /** The receipt from the last successful plan, or null/undefined for a first install. */
  receipt?: OwnershipReceipt | null;
  /** Exactly the entries AIC should own afterwards. */
  desired: readonly OwnedEntrySpec[];
  grammar: ShellGrammar;
  /** Default "project". */
  scope?: CommandScope;
  /** Default "jsonc". */
  mode?: ParseMode;
}

export interface PlanActions {
  kept: number;
  added: number;
  updated: number;
  removed: number;
}

export interface PlanResult {
  /** The bytes to write; a fresh copy equal to the input when nothing changed. Empty means
   * "the file should not exist" (only when AIC created it and nothing else is left). */
  bytes: Uint8Array;
  /** Persist this (even when !changed: the remainder digest is refreshed). */
  receipt: OwnershipReceipt;
  changed: boolean;
  warnings: HooksWarning[];
  actions: PlanActions;
}

interface Context {
  mode: ParseMode;
  layout: Layout;
  created: Set<string>;
  compacted: Set<string>;
}

interface Located {
  entry: ReceiptEntry;
  /** The entry node in the current document; undefined when missing (repair only). */
  node: JsonValue | undefined;
  command: string;
}

type Pairs = Array<readonly [string, FieldValue]>;

interface DesiredRendered {
  spec: OwnedEntrySpec;
  pairs: Pairs;
  command: string;
  digest: string;
}

/**
 * Make hooks.json contain exactly `desired` as AIC's entries: keep identical ones, update
 * changed ones in place, remove stale ones under any event, append new ones. Covers the seed's
 * Install (no receipt), repeated Install and Update.
 */
export function planOwnedEntries(request: PlanRequest): PlanResult {
  const mode = request.mode ?? "jsonc";
  const scope = request.scope ?? "project";
  const receipt = request.receipt ? parseReceipt(request.receipt) : null;
  const desired = renderDesired(request.desired, request.grammar, scope);
  const original = request.bytes.length === 0 ? null : decodeUtf8(request.bytes);
  const current = original === null ? null : parseHooksText(original, mode);
  const owned = receipt ? locateOwned(current, receipt, false) : [];

  // Pair desired entries with owned ones: identical spec -> keep; same event -> update in place.
  const sameRendering = receipt?.grammar === request.grammar && receipt.scope === scope;
  const unmatchedOwned = new Set(owned);
  const keep: DesiredRendered[] = [];
  const toPlace: DesiredRendered[] = [];
  for (const d of desired) {
    const match = sameRendering
      ? [...unmatchedOwned].find(
          (o) => o.entry.event === d.spec.event && sameSpec(o.entry.spec, d.spec),
        )
      : undefined;
    if (match) {
      unmatchedOwned.delete(match);
      keep.push(d);
    } else {
      toPlace.push(d);
    }
  }
  const updates: Array<{ from: Located; to: DesiredRendered }> = [];
  const adds: DesiredRendered[] = [];
  for (const d of toPlace) {
    const from = [...unmatchedOwned].find((o) => o.entry.event === d.spec.event);
    if (from) {
      unmatchedOwned.delete(from);
      updates.push({ from, to: d });
    } else {
      adds.push(d);
    }
  }
  const removes = [...unmatchedOwned];

  // A new command must not already run from any entry AIC does not own (in any event).
  const ownedNodes = new Set(owned.map((o) => o.node));
  const newCommands = new Set([...updates.map((u) => u.to.command), ...adds.map((a) => a.command)]);
  for (const e of allEntries(current)) {
    const c = commandOf(e.node);
    if (c !== undefined && newCommands.has(c) && !ownedNodes.has(e.node)) {
      throw new ConflictError("foreign-command-collision", posOf(current!, e.node));
    }
  }

  const ctx: Context = {
    mode,
    layout: original === null ? DEFAULT_LAYOUT : detectLayout(original),
    created: new Set(receipt?.created ?? []),
    compacted: new Set(receipt?.compacted ?? []),
  };
  let text = original;
  for (const u of updates) text = replaceEntry(text!, refOf(u.from), u.to.pairs, ctx);
  for (const r of removes) text = removeEntry(text!, refOf(r), ctx);
  if (desired.length === 0 && text !== null) text = removeCreatedSkeleton(text, ctx);
  for (const a of adds) text = addEntry(text, a, ctx);

  const finalDesired = [...keep, ...updates.map((u) => u.to), ...adds];
  const actions = {
    kept: keep.length,
    added: adds.length,
    updated: updates.length,
    removed: removes.length,
  };
  return finish(
    request,
    original,
    text,
    finalDesired,
    request.grammar,
    scope,
    ctx,
    current,
    actions,
  );
}

export interface RemoveRequest {
  bytes: Uint8Array;
  receipt: OwnershipReceipt;
  mode?: ParseMode;
}

export interface RemoveResult {
  bytes: Uint8Array;
  changed: boolean;
  warnings: HooksWarning[];
  removed: number;
}

/**
 * Remove every owned entry (and any container AIC created that is now empty). Every owned entry
 * must still be intact; foreign edits elsewhere are allowed. A second removal with the same
 * receipt conflicts (owned-entry-missing): record completed removals in the host's own ledger.
 */
export function removeOwnedEntries(request: RemoveRequest): RemoveResult {
  const receipt = parseReceipt(request.receipt);
  const result = planOwnedEntries({
    bytes: request.bytes,
    receipt,
    desired: [],
    grammar: receipt.grammar,
    scope: receipt.scope,
    mode: request.mode,
  });
  return {
    bytes: result.bytes,
    changed: result.changed,
    warnings: result.warnings,
    removed: result.actions.removed,
  };
}

export interface RepairRequest {
  bytes: Uint8Array;
  receipt: OwnershipReceipt;
  mode?: ParseMode;
}

/**
 * Restore missing owned entries from the receipt's own specs, and only when the rest of the
 * document (the remainder) is exactly as the receipt recorded it: then the entries' absence is
 * proven to be a loss, not an edit. Drift with a missing entry throws AbsenceUnprovenError (a
 * ConflictError); drift with everything intact throws remainder-drift; an edited owned entry
 * throws owned-entry-edited (a changed command never becomes a deletion).
 */
export function repairOwnedEntries(request: RepairRequest): PlanResult {
  const receipt = parseReceipt(request.receipt);
  const mode = request.mode ?? "jsonc";
  const original = request.bytes.length === 0 ? null : decodeUtf8(request.bytes);
  const current = original === null ? null : parseHooksText(original, mode);
  const located = locateOwned(current, receipt, true);
  const missing = located.filter((l) => l.node === undefined);
  const remainder = remainderDigestOf(
    current,
    new Set(located.map((l) => l.node).filter((n): n is JsonValue => n !== undefined)),
    new Set(receipt.entries.map((e) => e.event)),
    new Set(receipt.created),
  );
  if (remainder !== receipt.remainderDigest) {
    if (missing.length > 0) throw new AbsenceUnprovenError();
    throw new ConflictError("remainder-drift");
  }
  const ctx: Context = {
    mode,
    layout: original === null ? DEFAULT_LAYOUT : detectLayout(original),
    created: new Set(receipt.created),
    compacted: new Set(receipt.compacted),
  };
  let text = original;
  const desired = receipt.entries.map((e) =>
    renderOne({ event: e.event, ...e.spec }, receipt.grammar, receipt.scope),
  );
  for (const m of missing) {
    text = addEntry(text, desired[receipt.entries.indexOf(m.entry)]!, ctx);
  }
  const actions = {
    kept: desired.length - missing.length,
    added: missing.length,
    updated: 0,
    removed: 0,
  };
  return finish(
    request,
    original,
    text,
    desired,
    receipt.grammar,
    receipt.scope,
    ctx,
    current,
    actions,
  );
}

export interface VerifyRequest {
  bytes: Uint8Array;
  receipt: OwnershipReceipt;
  mode?: ParseMode;
}

export interface VerifyResult {
  /** Always true when no error is thrown: every owned entry is present, unique and unedited. */
  owned: true;
  /** False when foreign content changed since the receipt (allowed, but repair would refuse). */
  remainderUnchanged: boolean;
  warnings: HooksWarning[];
}

/** Prove every receipted entry is present exactly once, unedited, under its event. */
export function verifyOwned(request: VerifyRequest): VerifyResult {
  const receipt = parseReceipt(request.receipt);
  const text = request.bytes.length === 0 ? null : decodeUtf8(request.bytes);
  const current = text === null ? null : parseHooksText(text, request.mode ?? "jsonc");
  const located = locateOwned(current, receipt, false);
  const remainder = remainderDigestOf(
    current,
    new Set(located.map((l) => l.node!)),
    new Set(receipt.entries.map((e) => e.event)),
    new Set(receipt.created),
  );
  return {
    owned: true,
    remainderUnchanged: remainder === receipt.remainderDigest,
    warnings: current?.warnings ?? [],
  };
}

// ---------------------------------------------------------------------------------------------

function renderDesired(
  specs: readonly OwnedEntrySpec[],
  grammar: ShellGrammar,
  scope: CommandScope,
): DesiredRendered[] {
  const rendered = specs.map((s) => renderOne(s, grammar, scope));
  const commands = new Set<string>();
  for (const r of rendered) {
    if (commands.has(r.command)) throw new InvalidRequestError("duplicate-desired-command");
    commands.add(r.command);
  }
  return rendered;
}

function renderOne(
  spec: OwnedEntrySpec,
  grammar: ShellGrammar,
  scope: CommandScope,
): DesiredRendered {
  checkEvent(spec.event);
  const pairs = entryPairs(spec, grammar, scope);
  return { spec, pairs, command: pairs[0]![1] as string, digest: specDigest(pairs) };
}

interface EntryRef {
  event: string;
  node: JsonValue;
}

function allEntries(doc: HooksDocument | null): EntryRef[] {
  return (doc?.events ?? []).flatMap((slot) =>
    slot.array.items.map((node) => ({ event: slot.name, node })),
  );
}

function posOf(doc: HooksDocument, node: JsonValue) {
  return positionOf(doc.doc.text, node.start);
}

/**
 * Find each receipted entry: exactly one full-content match under its event, and its command
 * nowhere else. With allowMissing (repair), an entry whose command appears nowhere is reported
 * as missing instead of throwing.
 */
function locateOwned(
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
  return receipt.entries.map((entry) => {
    let pairs: Pairs;
    try {
      pairs = entryPairs(entry.spec, receipt.grammar, receipt.scope);
    } catch {
      throw new InvalidRequestError("invalid-receipt");
    }
    // The receipt binds its spec to its digest: a receipt invented around edited config fails.
    if (specDigest(pairs) !== entry.entryDigest) throw new ConflictError("receipt-spec-mismatch");
    const command = pairs[0]![1] as string;
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

// --- splices: one at a time, re-parsing in between, so offsets are always fresh -------------

/** How to find one owned entry in a fresh parse: its event, full digest and command. */
interface OwnedRef {
  event: string;
  digest: string;
  command: string;
}

function refOf(l: Located): OwnedRef {
  return { event: l.entry.event, digest: l.entry.entryDigest, command: l.command };
}

function findOwnedNode(doc: HooksDocument, ref: OwnedRef) {
  const slot = doc.events.find((s) => s.name === ref.event)!;
  // Comparing the command first keeps this linear in cheap string checks on large files.
  const index = slot.array.items.findIndex(
    (n) => commandOf(n) === ref.command && entryDigest(n) === ref.digest,
  );
  return { slot, index, node: slot.array.items[index]! };
}

function replaceEntry(text: string, ref: OwnedRef, pairs: Pairs, ctx: Context): string {
  const doc = parseHooksText(text, ctx.mode);
  const { node } = findOwnedNode(doc, ref);
  const rendered = renderEntry(pairs, lineIndent(text, node.start), ctx.layout);
  return text.slice(0, node.start) + rendered + text.slice(node.end);
}

function removeEntry(text: string, ref: OwnedRef, ctx: Context): string {
  const doc = parseHooksText(text, ctx.mode);
  const { slot, index } = findOwnedNode(doc, ref);
  const eventMark = `event:${ref.event}`;
  if (
    slot.array.items.length > 1 ||
    !ctx.created.has(eventMark) ||
    !holdsOnly(text, slot.array, index) ||
    !isPlainMember(text, slot.member)
  ) {
    const restore = ctx.compacted.has(eventMark) && slot.array.items.length === 1;
    if (restore) ctx.compacted.delete(eventMark);
    return removeChild(text, slot.array, index, restore);
  }
  // Last entry of an event AIC created: remove the event itself, then hooks/version if ours.
  const hooks = doc.hooks!;
  text = removeChild(
    text,
    hooks,
    hooks.members.indexOf(slot.member),
    takeCompact(ctx, "hooks", hooks),
  );
  ctx.created.delete(eventMark);
  ctx.compacted.delete(eventMark);
  return text;
}

/**
 * When AIC owns nothing any more, take out the `hooks` object (if AIC created it and it is now
 * empty) and the `version` AIC added, so an install followed by a removal is byte-exact.
 */
function removeCreatedSkeleton(text: string, ctx: Context): string {
  let doc = parseHooksText(text, ctx.mode);
  const hooks = doc.hooks;
  if (
    hooks &&
    hooks.members.length === 0 &&
    ctx.created.has("hooks") &&
    isBlank(text, hooks.start + 1, hooks.end - 1) &&
    isPlainMember(text, doc.hooksMember!)
  ) {
    text = removeChild(
      text,
      doc.root,
      doc.root.members.indexOf(doc.hooksMember!),
      takeCompact(ctx, "root", doc.root),
    );
    ctx.created.delete("hooks");
    ctx.compacted.delete("hooks");
    doc = parseHooksText(text, ctx.mode);
  }
  const version = doc.version;
  if (
    version &&
    isPlainMember(text, version) &&
    ctx.created.has("version") &&
    version.value.type === "number" &&
    version.value.text === "1"
  ) {
    text = removeChild(
      text,
      doc.root,
      doc.root.members.indexOf(version),
      takeCompact(ctx, "root", doc.root),
    );
    ctx.created.delete("version");
  }
  return text;
}

/** True when a container holds child `index` and nothing else but whitespace and one comma. */
function holdsOnly(text: string, container: JsonArray | JsonObject, index: number): boolean {
  const child = container.type === "array" ? container.items[index]! : container.members[index]!;
  return (
    isBlank(text, container.start + 1, child.start) &&
    /^[ \t\r\n]*,?[ \t\r\n]*$/.test(text.slice(child.end, container.end - 1))
  );
}

function hasComment(text: string, node: JsonValue): boolean {
  const scanner = createScanner(text.slice(node.start, node.end), false);
  for (let kind = scanner.scan(); kind !== T.EOF; kind = scanner.scan()) {
    if (kind === T.LineComment || kind === T.BlockComment) return true;
  }
  return false;
}

/** No comment between a member's key and value, so removing the member removes no comment. */
function isPlainMember(text: string, m: JsonMember): boolean {
  return /^[ \t\r\n]*:[ \t\r\n]*$/.test(text.slice(m.key.end, m.value.start));
}

function isBlank(text: string, from: number, to: number): boolean {
  return /^[ \t\r\n]*$/.test(text.slice(from, to));
}

/** Restore `{}` only when this removal empties the container we opened. */
function takeCompact(ctx: Context, mark: string, container: JsonObject): boolean {
  const restore = ctx.compacted.has(mark) && container.members.length === 1;
  if (restore) ctx.compacted.delete(mark);
  return restore;
}

function addEntry(text: string | null, d: DesiredRendered, ctx: Context): string {
  const { layout } = ctx;
  if (text === null) {
    text = `{}${layout.newline}`;
    ctx.created.add("document");
  }
  let doc = parseHooksText(text, ctx.mode);
  const open = (mark: string, opened: boolean) => {
    if (opened) ctx.compacted.add(mark);
  };
  if (!doc.version) {
    const ins = appendChild(text, doc.root, layout, () => `"version": 1`);
    open("root", ins.openedCompact);
    ctx.created.add("version");
    text = ins.text;
    doc = parseHooksText(text, ctx.mode);
  }
  const event = d.spec.event;
  const entry = (indent: string, at: Layout) => renderEntry(d.pairs, indent, at);
  const eventMember = (indent: string, at: Layout) =>
    `${JSON.stringify(event)}: ${wrap("[", "]", entry, indent, at)}`;
  if (!doc.hooks) {
    const ins = appendChild(
      text,
      doc.root,
      layout,
      (indent, at) => `"hooks": ${wrap("{", "}", eventMember, indent, at)}`,
    );
    open("root", ins.openedCompact);
    ctx.created.add("hooks");
    ctx.created.add(`event:${event}`);
    return ins.text;
  }
  const slot = doc.events.find((s) => s.name === event);
  if (!slot) {
    const ins = appendChild(text, doc.hooks, layout, eventMember);
    open("hooks", ins.openedCompact);
    ctx.created.add(`event:${event}`);
    return ins.text;
  }
  const ins = appendChild(text, slot.array, layout, entry);
  open(`event:${event}`, ins.openedCompact);
  return ins.text;
}

/** A new container holding one child, laid out like the document. */
function wrap(
  open: string,
  close: string,
  child: (indent: string, at: Layout) => string,
  indent: string,
  layout: Layout,
): string {
  if (layout.inline) return `${open} ${child(indent, layout)} ${close}`;
  const inner = indent + layout.unit;
  return `${open}${layout.newline}${inner}${child(inner, layout)}${layout.newline}${indent}${close}`;
}

function finish(
  request: { bytes: Uint8Array },
  original: string | null,
  text: string | null,
  desired: DesiredRendered[],
  grammar: ShellGrammar,
  scope: CommandScope,
  ctx: Context,
  before: HooksDocument | null,
  actions: PlanActions,
): PlanResult {
  // A file AIC created and that now holds nothing else goes back to not existing.
  if (text !== null && ctx.created.has("document") && text === `{}${ctx.layout.newline}`) {
    text = null;
    ctx.created.delete("document");
    ctx.compacted.delete("root");
  }
  const after = text === null ? null : parseHooksText(text, ctx.mode);
  const changed = text !== original;
  const bytes = !changed
    ? request.bytes.slice()
    : text === null
      ? new Uint8Array(0)
      : new TextEncoder().encode(text);
  const ownedNodes = new Set<JsonValue>();
  const entries: ReceiptEntry[] = desired.map((d) => {
    if (after)
      ownedNodes.add(
        findOwnedNode(after, { event: d.spec.event, digest: d.digest, command: d.command }).node,
      );
    return {
      event: d.spec.event,
      spec: { argv: [...d.spec.argv], fields: { ...(d.spec.fields ?? {}) } },
      entryDigest: d.digest,
    };
  });
  const receipt: OwnershipReceipt = {
    version: 1,
    grammar,
    scope,
    entries,
    remainderDigest: remainderDigestOf(
      after,
      ownedNodes,
      new Set(entries.map((e) => e.event)),
      ctx.created,
    ),
    created: [...ctx.created].sort(),
    compacted: [...ctx.compacted].sort(),
  };
  return { bytes, receipt, changed, warnings: (after ?? before)?.warnings ?? [], actions };
}
