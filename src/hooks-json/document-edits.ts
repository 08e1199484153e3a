import { entryDigest } from "./canonical.js";
import { type HooksDocument, commandOf, parseHooksText } from "./document.js";
import { appendChild, isBlank, onlyWhitespaceAnd, removeChild } from "./edits.js";
import { type Layout, lineIndent, renderEntry } from "./layout.js";
import type { EntryPairs } from "./receipt.js";
import type { JsonArray, JsonMember, JsonObject, ParseMode } from "./parse.js";

/**
 * Document-level edits for owned entries, one splice at a time with a fresh parse in between
 * so offsets are always current. `created`/`compacted` (carried in the receipt) say which
 * containers AIC made, so removing the last owned entry takes exactly those away again.
 */

export interface EditContext {
  /** Parse mode of the document being edited (our edits never add comments). */
  mode: ParseMode;
  layout: Layout;
  created: Set<string>;
  compacted: Set<string>;
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

export function removeEntry(text: string, ref: OwnedRef, ctx: EditContext): string {
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

/** True when a container holds child `index` and nothing else but whitespace and one comma. */
function holdsOnly(text: string, container: JsonArray | JsonObject, index: number): boolean {
  const child = container.type === "array" ? container.items[index]! : container.members[index]!;
  return (
    isBlank(text, container.start + 1, child.start) &&
    (isBlank(text, child.end, container.end - 1) ||
      onlyWhitespaceAnd(text, child.end, container.end - 1, ","))
  );
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

export function addEntry(
  text: string | null,
  event: string,
  pairs: EntryPairs,
  ctx: EditContext,
): string {
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
  const entry = (indent: string, at: Layout) => renderEntry(pairs, indent, at);
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
