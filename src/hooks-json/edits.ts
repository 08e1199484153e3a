import type { JsonArray, JsonObject } from "./parse.js";
import { type Layout, lineIndent, startsLine } from "./layout.js";

/**
 * Offset-precise splices on container children. Each insertion has an exact inverse removal:
 * removing an element we appended (with no edits around it) restores the bytes it was
 * appended to. Everything outside the spliced span is untouched.
 */

type Container = JsonArray | JsonObject;

interface Child {
  start: number;
  end: number;
}

function children(c: Container): Child[] {
  return c.type === "array" ? c.items : c.members;
}

function isContainer(container: Container, index: number): boolean {
  const value =
    container.type === "array" ? container.items[index]! : container.members[index]!.value;
  return value.type === "object" || value.type === "array";
}

/** Text to insert at one offset; the caller applies it (several can share one parse). */
export interface Insertion {
  at: number;
  insert: string;
  /** True when the container was written as `[]` / `{}` and we opened it onto new lines. */
  openedCompact: boolean;
}

/** Children rendered for the indentation (and one-line or not) they will sit at. */
export type RenderChildren = (indent: string, layout: Layout) => string[];

/** Join sibling children the way the layout writes them. */
export function joinChildren(children: string[], indent: string, layout: Layout): string {
  return children.join(layout.inline ? ", " : `,${layout.newline}${indent}`);
}

/**
 * Append children after the last element of a container. Only ever inserts at one offset, so
 * insertions into different containers computed from one parse can be applied together
 * (highest offset first).
 */
export function appendChildren(
  text: string,
  container: Container,
  layout: Layout,
  render: RenderChildren,
): Insertion {
  const kids = children(container);
  const parentIndent = lineIndent(text, container.start);
  const last = kids[kids.length - 1];
  if (last) {
    const indent = lineIndent(text, last.start);
    if (layout.inline || !startsLine(text, last.start)) {
      // Siblings written on one line: the new children go on that line too, in one-line form.
      const inline = { ...layout, inline: true };
      const insert = `, ${joinChildren(render(indent, inline), indent, inline)}`;
      return { at: last.end, insert, openedCompact: false };
    }
    // A sibling container written on one line ({"command": "x"}) sets the style for ours.
    const oneLine =
      isContainer(container, kids.length - 1) && !/[\r\n]/.test(text.slice(last.start, last.end));
    const style = oneLine ? { ...layout, inline: true } : layout;
    const joined = joinChildren(render(indent, style), indent, { ...style, inline: false });
    return { at: last.end, insert: `,${layout.newline}${indent}${joined}`, openedCompact: false };
  }
  const at = container.start + 1;
  const indent = parentIndent + layout.unit;
  const joined = joinChildren(render(indent, layout), indent, layout);
  if (layout.inline) return { at, insert: joined, openedCompact: false };
  if (text.slice(at, container.end - 1) === "") {
    const insert = `${layout.newline}${indent}${joined}${layout.newline}${parentIndent}`;
    return { at, insert, openedCompact: true };
  }
  return { at, insert: `${layout.newline}${indent}${joined}`, openedCompact: false };
}

/** Apply insertions computed against the same text, from the highest offset down. */
export function applyInsertions(text: string, insertions: Insertion[]): string {
  return [...insertions]
    .sort((x, y) => y.at - x.at)
    .reduce((out, ins) => splice(out, ins.at, ins.at, ins.insert), text);
}

/**
 * Remove child `index` with one adjacent separator and the whitespace that belonged to it;
 * comments are never removed. `restoreCompact` turns a now-empty, whitespace-only container
 * back into `[]`/`{}` (we opened it when inserting).
 */
export function removeChild(
  text: string,
  container: Container,
  index: number,
  restoreCompact: boolean,
): string {
  const kids = children(container);
  const commas = container.commas;
  const child = kids[index]!;
  const prev = kids[index - 1];
  const next = kids[index + 1];
  const isSeparator = (from: number, to: number) => onlyWhitespaceAnd(text, from, to, ",");

  if (prev) {
    if (isSeparator(prev.end, child.start)) return splice(text, prev.end, child.end, "");
    // Comments between: drop the child, then the comma before it.
    const comma = commas[index - 1]!;
    return splice(splice(text, child.start, child.end, ""), comma, comma + 1, "");
  }
  if (next) {
    if (isSeparator(child.end, next.start)) return splice(text, child.start, next.start, "");
    // Comments between: drop the comma after the child, then the child; comments stay.
    const comma = commas[index]!;
    return splice(splice(text, comma, comma + 1, ""), child.start, child.end, "");
  }
  // The only child.
  const open = container.start + 1;
  const close = container.end - 1;
  const from = isBlank(text, open, child.start) ? open : child.start;
  const comma = commas[index]!;
  // A trailing comma goes too; when comments sit between, only the comma itself.
  const to = comma >= 0 && isBlank(text, child.end, comma) ? comma + 1 : child.end;
  let out = comma >= 0 && to === child.end ? splice(text, comma, comma + 1, "") : text;
  out = splice(out, from, to, "");
  const newClose = close - (text.length - out.length);
  if (restoreCompact && isBlank(out, open, newClose)) out = splice(out, open, newClose, "");
  return out;
}

/** True when text[from, to) is JSON whitespace only (no comments). */
export function isBlank(text: string, from: number, to: number): boolean {
  return /^[ \t\r\n]*$/.test(text.slice(from, to));
}

/** True when text[from, to) is whitespace around exactly one `mark` (",", ":"), no comments. */
export function onlyWhitespaceAnd(text: string, from: number, to: number, mark: string): boolean {
  const s = text.slice(from, to);
  return s.includes(mark) && /^[ \t\r\n]*$/.test(s.replace(mark, ""));
}

export function splice(text: string, from: number, to: number, insert: string): string {
  return text.slice(0, from) + insert + text.slice(to);
}
