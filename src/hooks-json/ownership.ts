import type { CommandScope, ShellGrammar } from "./command.js";
import { AbsenceUnprovenError, ConflictError, InvalidRequestError, LimitError } from "./errors.js";
import { LIMITS } from "./limits.js";
import { type HooksDocument, type HooksWarning, commandOf, parseHooksText } from "./document.js";
import {
  type EditContext,
  type OwnedRef,
  addEntries,
  findOwnedNode,
  removeCreatedSkeleton,
  removeEntries,
  replaceEntry,
} from "./document-edits.js";
import { DEFAULT_LAYOUT, detectLayout } from "./layout.js";
import { type Located, allEntries, locateOwned, posOf, remainderDigestOf } from "./locate.js";
import { type JsonValue, type ParseMode, decodeUtf8 } from "./parse.js";
import {
  type EntryPairs,
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

interface DesiredRendered {
  spec: OwnedEntrySpec;
  pairs: EntryPairs;
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

  const sameRendering = receipt?.grammar === request.grammar && receipt.scope === scope;
  const { keep, updates, adds, removes } = pairDesired(owned, desired, sameRendering);

  // A new command must not already run from any entry AIC does not own (in any event).
  const ownedNodes = new Set(owned.map((o) => o.node));
  const newCommands = new Set([...updates.map((u) => u.to.command), ...adds.map((a) => a.command)]);
  for (const e of allEntries(current)) {
    const c = commandOf(e.node);
    if (c !== undefined && newCommands.has(c) && !ownedNodes.has(e.node)) {
      throw new ConflictError("foreign-command-collision", posOf(current!, e.node));
    }
  }

  const ctx: EditContext = {
    mode,
    layout: original === null ? DEFAULT_LAYOUT : detectLayout(original),
    created: new Set(receipt?.created ?? []),
    compacted: new Set(receipt?.compacted ?? []),
    ownedCommands: new Set([...keep, ...updates.map((u) => u.to), ...adds].map((d) => d.command)),
  };
  let text = original;
  for (const u of updates) text = replaceEntry(text!, refOf(u.from), u.to.pairs, ctx);
  if (text !== null) text = removeEntries(text, removes.map(refOf), ctx);
  if (desired.length === 0 && text !== null) text = removeCreatedSkeleton(text, ctx);
  text = addEntries(
    text,
    adds.map((a) => ({ event: a.spec.event, pairs: a.pairs })),
    ctx,
  );

  const finalDesired = [...keep, ...updates.map((u) => u.to), ...adds];
  const actions = {
    kept: keep.length,
    added: adds.length,
    updated: updates.length,
    removed: removes.length,
  };
  return finish({
    input: request.bytes,
    original,
    text,
    desired: finalDesired,
    grammar: request.grammar,
    scope,
    ctx,
    before: current,
    actions,
  });
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
  const desired = receipt.entries.map((e) =>
    renderOne({ event: e.event, ...e.spec }, receipt.grammar, receipt.scope),
  );
  const ctx: EditContext = {
    mode,
    layout: original === null ? DEFAULT_LAYOUT : detectLayout(original),
    created: new Set(receipt.created),
    compacted: new Set(receipt.compacted),
    ownedCommands: new Set(desired.map((d) => d.command)),
  };
  const restored = missing.map((m) => desired[receipt.entries.indexOf(m.entry)]!);
  const text = addEntries(
    original,
    restored.map((d) => ({ event: d.spec.event, pairs: d.pairs })),
    ctx,
  );
  const actions = {
    kept: desired.length - missing.length,
    added: missing.length,
    updated: 0,
    removed: 0,
  };
  return finish({
    input: request.bytes,
    original,
    text,
    desired,
    grammar: receipt.grammar,
    scope: receipt.scope,
    ctx,
    before: current,
    actions,
  });
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

interface Pairing {
  keep: DesiredRendered[];
  updates: Array<{ from: Located; to: DesiredRendered }>;
  adds: DesiredRendered[];
  removes: Located[];
}

/**
 * Pair desired entries with owned ones: an identical spec (rendered the same way) is kept;
 * otherwise an owned entry of the same event is updated in place (in order); what is left is
 * added, and owned entries nobody claimed are removed.
 */
function pairDesired(
  owned: Located[],
  desired: DesiredRendered[],
  sameRendering: boolean,
): Pairing {
  const unmatched = new Set(owned);
  const take = (match: (o: Located) => boolean) => {
    const found = [...unmatched].find(match);
    if (found) unmatched.delete(found);
    return found;
  };
  const keep: DesiredRendered[] = [];
  const rest: DesiredRendered[] = [];
  for (const d of desired) {
    const same = sameRendering
      ? take((o) => o.entry.event === d.spec.event && sameSpec(o.entry.spec, d.spec))
      : undefined;
    (same ? keep : rest).push(d);
  }
  const updates: Pairing["updates"] = [];
  const adds: DesiredRendered[] = [];
  for (const d of rest) {
    const from = take((o) => o.entry.event === d.spec.event);
    if (from) updates.push({ from, to: d });
    else adds.push(d);
  }
  return { keep, updates, adds, removes: [...unmatched] };
}

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

function refOf(l: Located): OwnedRef {
  return { event: l.entry.event, digest: l.entry.entryDigest, command: l.command };
}

interface Outcome {
  /** The caller's bytes (returned as a copy when nothing changed). */
  input: Uint8Array;
  /** Decoded input, or null when there was no file. */
  original: string | null;
  /** The edited text, or null for "no file". */
  text: string | null;
  /** Every entry AIC owns afterwards. */
  desired: DesiredRendered[];
  grammar: ShellGrammar;
  scope: CommandScope;
  ctx: EditContext;
  before: HooksDocument | null;
  actions: PlanActions;
}

/** Encode the result, check it against the limits, and write the new receipt. */
function finish(outcome: Outcome): PlanResult {
  const { input, original, desired, grammar, scope, ctx, before, actions } = outcome;
  let { text } = outcome;
  // A file AIC created and that now holds nothing else goes back to not existing.
  if (text !== null && ctx.created.has("document") && text === `{}${ctx.layout.newline}`) {
    text = null;
    ctx.created.delete("document");
    ctx.compacted.delete("root");
  }
  const after = text === null ? null : parseHooksText(text, ctx.mode);
  const changed = text !== original;
  const bytes = !changed
    ? input.slice()
    : text === null
      ? new Uint8Array(0)
      : new TextEncoder().encode(text);
  // The output obeys the same limits as input (the parse above checked depth and nodes).
  if (bytes.length > LIMITS.maxBytes) throw new LimitError("too-large");
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
