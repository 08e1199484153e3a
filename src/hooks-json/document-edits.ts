import { entryDigest } from "./canonical.js";
import { type EventSlot, type HooksDocument, commandOf, parseHooksText } from "./document.js";
import {
  type Deletion,
  type Insertion,
  type RenderChildren,
  appendChildren,
  applyDeletions,
  applyInsertions,
  isBlank,
  joinChildren,
  onlyWhitespaceAnd,
  removalSpans,
  removeChild,
} from "./edits.js";
import { type Layout, lineIndent, renderEntry } from "./layout.js";
import type { EntryPairs } from "./receipt.js";
import type { JsonArray, JsonMember, JsonObject, ParseMode } from "./parse.js";

/**
 * Document-level edits for owned entries. Appends and removals are each computed from one parse
 * and applied from the end of the text backwards; an update re-parses per entry. The
 * `created`/`compacted` marks (carried in the receipt) say which containers AIC made, so
 * removing the last owned entry takes exactly those away again.
 */

export interface EditContext {
  /** Parse mode of the document being edited (our edits never add comments). */
  mode: ParseMode;
  layout: Layout;
  created: Set<string>;
  compacted: Set<string>;
  /** Commands of the entries AIC owns once this edit is done (foreign entries never share one). */
  ownedCommands: ReadonlySet<string>;
}

/** How to find one owned entry in a fresh parse: its event, full digest and command. */
export interface OwnedRef {
  event: string;
  digest: string;
  command: string;
}

export function findOwnedNode(doc: HooksDocument, ref: OwnedRef) {
  const slot = doc.events.find((s) => s.name === ref.event)!;
  // Comparing the command first keeps this linear in cheap string checks on large files.
  const index = slot.array.items.findIndex(
    (n) => commandOf(n) === ref.command && entryDigest(n) === ref.digest,
  );
  return { slot, index, node: slot.array.items[index]! };
}

export function replaceEntry(
  text: string,
  ref: OwnedRef,
  pairs: EntryPairs,
  ctx: EditContext,
): string {
  const doc = parseHooksText(text, ctx.mode);
  const { node } = findOwnedNode(doc, ref);
  // Keep the old entry's shape: one line stays one line.
  const oneLine = !/[\r\n]/.test(text.slice(node.start, node.end));
  const layout = oneLine ? { ...ctx.layout, inline: true } : ctx.layout;
  const rendered = renderEntry(pairs, lineIndent(text, node.start), layout);
  return text.slice(0, node.start) + rendered + text.slice(node.end);
}

/**
 * Remove owned entries, all computed from one parse. An event AIC created goes as a whole once
 * its last entry goes (unless a comment lives in it); a container AIC opened from `[]`/`{}`
 * is closed again when it ends up empty.
 */
export function removeEntries(text: string, refs: readonly OwnedRef[], ctx: EditContext): string {
  if (refs.length === 0) return text;
  const doc = parseHooksText(text, ctx.mode);
  const byEvent = new Map<EventSlot, Set<number>>();
  for (const ref of refs) {
    const { slot, index } = findOwnedNode(doc, ref);
    byEvent.set(slot, (byEvent.get(slot) ?? new Set()).add(index));
  }
  const spans: Deletion[] = [];
  const goneMembers = new Set<number>();
  for (const [slot, indices] of byEvent) {
    const mark = `event:${slot.name}`;
    const emptied = indices.size === slot.array.items.length;
    if (
      emptied &&
      ctx.created.has(mark) &&
      holdsOnlyChildren(text, slot.array) &&
      isPlainMember(text, slot.member)
    ) {
      goneMembers.add(doc.hooks!.members.indexOf(slot.member));
      ctx.created.delete(mark);
      ctx.compacted.delete(mark);
      continue;
    }
    const removal = removalSpans(text, slot.array, indices, emptied && ctx.compacted.has(mark));
    if (removal.restored) ctx.compacted.delete(mark);
    spans.push(...removal.spans);
  }
  if (goneMembers.size > 0) {
    const hooks = doc.hooks!;
    const emptied = goneMembers.size === hooks.members.length;
    const removal = removalSpans(text, hooks, goneMembers, emptied && ctx.compacted.has("hooks"));
    if (removal.restored) ctx.compacted.delete("hooks");
    spans.push(...removal.spans);
  }
  return applyDeletions(text, spans);
}

/**
 * When AIC owns nothing any more, take out the `hooks` object (if AIC created it and it is now
 * empty) and the `version` AIC added, so an install followed by a removal is byte-exact.
 */
export function removeCreatedSkeleton(text: string, ctx: EditContext): string {
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

/** True when nothing but the children, commas and whitespace is inside a container. */
function holdsOnlyChildren(text: string, container: JsonArray | JsonObject): boolean {
  const kids = container.type === "array" ? container.items : container.members;
  const gaps = [container.start + 1, ...kids.flatMap((k) => [k.start, k.end]), container.end - 1];
  for (let i = 0; i < gaps.length; i += 2) {
    const from = gaps[i]!;
    const to = gaps[i + 1]!;
    if (!isBlank(text, from, to) && !onlyWhitespaceAnd(text, from, to, ",")) return false;
  }
  return true;
}

/** No comment between a member's key and value, so removing the member removes no comment. */
function isPlainMember(text: string, m: JsonMember): boolean {
  return onlyWhitespaceAnd(text, m.key.end, m.value.start, ":");
}

/** Restore `{}` only when this removal empties the container we opened. */
function takeCompact(ctx: EditContext, mark: string, container: JsonObject): boolean {
  const restore = ctx.compacted.has(mark) && container.members.length === 1;
  if (restore) ctx.compacted.delete(mark);
  return restore;
}

/** One entry to add: its event and rendered key/value pairs. */
export interface NewEntry {
  event: string;
  pairs: EntryPairs;
}

/**
 * Append entries, creating the file, `version`, `hooks` and event arrays as needed (and
 * recording what was created). All appends are computed from one parse and applied together:
 * one insertion per container, so entries for one event land as a block in their given order.
 */
export function addEntries(
  text: string | null,
  entries: readonly NewEntry[],
  ctx: EditContext,
): string | null {
  if (entries.length === 0) return text;
  const { layout } = ctx;
  if (text === null) {
    text = `{}${layout.newline}`;
    ctx.created.add("document");
  }
  let doc = parseHooksText(text, ctx.mode);
  const opened = (mark: string, ins: Insertion) => {
    if (ins.openedCompact) ctx.compacted.add(mark);
    return ins;
  };
  if (!doc.version) {
    const ins = appendChildren(text, doc.root, layout, () => [`"version": 1`]);
    text = applyInsertions(text, [opened("root", ins)]);
    ctx.created.add("version");
    doc = parseHooksText(text, ctx.mode);
  }
  const byEvent = new Map<string, EntryPairs[]>();
  for (const e of entries) byEvent.set(e.event, [...(byEvent.get(e.event) ?? []), e.pairs]);
  const renderEntries =
    (list: EntryPairs[]): RenderChildren =>
    (indent, at) =>
      list.map((pairs) => renderEntry(pairs, indent, at));
  const renderEvents =
    (events: string[]): RenderChildren =>
    (indent, at) =>
      events.map(
        (e) =>
          `${JSON.stringify(e)}: ${wrap("[", "]", renderEntries(byEvent.get(e)!), indent, at)}`,
      );
  const existing = new Map(doc.events.map((slot) => [slot.name, slot]));
  const newEvents = [...byEvent.keys()].filter((e) => !existing.has(e));
  for (const e of newEvents) ctx.created.add(`event:${e}`);
  if (!doc.hooks) {
    const hooksMember: RenderChildren = (indent, at) => [
      `"hooks": ${wrap("{", "}", renderEvents(newEvents), indent, at)}`,
    ];
    ctx.created.add("hooks");
    return applyInsertions(text, [
      opened("root", appendChildren(text, doc.root, layout, hooksMember)),
    ]);
  }
  const insertions: Insertion[] = [];
  for (const [event, list] of byEvent) {
    const slot = existing.get(event);
    if (slot) {
      const last = slot.array.items[slot.array.items.length - 1];
      const foreign = last !== undefined && !ctx.ownedCommands.has(commandOf(last) ?? "");
      const ins = appendChildren(text, slot.array, layout, renderEntries(list), foreign);
      insertions.push(opened(`event:${event}`, ins));
    }
  }
  if (newEvents.length > 0) {
    insertions.push(
      opened(
        "hooks",
        appendChildren(
          text,
          doc.hooks,
          layout,
          renderEvents(newEvents),
          foreignLastEvent(doc.hooks, ctx),
        ),
      ),
    );
  }
  return applyInsertions(text, insertions);
}

/** Is the last member of `hooks` an event the user wrote (not one AIC created)? */
function foreignLastEvent(hooks: JsonObject, ctx: EditContext): boolean {
  const last = hooks.members[hooks.members.length - 1];
  return last !== undefined && !ctx.created.has(`event:${last.key.value}`);
}

/** A new container holding children, laid out like the document. */
function wrap(
  open: string,
  close: string,
  render: RenderChildren,
  indent: string,
  layout: Layout,
): string {
  if (layout.inline)
    return `${open} ${joinChildren(render(indent, layout), indent, layout)} ${close}`;
  const inner = indent + layout.unit;
  const joined = joinChildren(render(inner, layout), inner, layout);
  return `${open}${layout.newline}${inner}${joined}${layout.newline}${indent}${close}`;
}
