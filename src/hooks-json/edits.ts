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
  /** Where a separating comma goes when `insert` lands after a comment (see appendChildren). */
  commaAt?: number;
}

/**
 * A comment the user wrote on the same line after a child (`{ "command": "x" } // why`), with
 * the child's comma if it has one there. `lineEnd` is where that line breaks. Undefined when the
 * rest of the line holds no comment, or the comment runs onto another line.
 */
function sameLineComment(
  text: string,
  from: number,
): { comma: number; lineEnd: number } | undefined {
  // Block comments on the line, then at most one line comment (it runs to the line break).
  const m =
    /^[ \t]*(,?)[ \t]*((?:\/\*(?:(?!\*\/)[^\r\n])*\*\/[ \t]*)*)(\/\/[^\r\n]*)?(?=\r?\n)/.exec(
      text.slice(from),
    );
  if (!m || (m[2] === "" && m[3] === undefined)) return undefined;
  return { comma: m[1] ? from + m[0].indexOf(",") : -1, lineEnd: from + m[0].length };
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
  lastIsForeign = false,
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
    const body = `${layout.newline}${indent}${joined}`;
    // A comment after the user's last child annotates that child: ours go on the lines after it.
    const tail = lastIsForeign ? sameLineComment(text, last.end) : undefined;
    if (tail && tail.comma >= 0)
      return { at: tail.lineEnd, insert: `${body},`, openedCompact: false };
    if (tail) return { at: tail.lineEnd, insert: body, openedCompact: false, commaAt: last.end };
    return { at: last.end, insert: `,${body}`, openedCompact: false };
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
  return insertions
    .flatMap((ins) => (ins.commaAt === undefined ? [ins] : [ins, { at: ins.commaAt, insert: "," }]))
    .sort((x, y) => y.at - x.at)
    .reduce((out, ins) => splice(out, ins.at, ins.at, ins.insert), text);
}

/** A deletion of text[from, to). */
export interface Deletion {
  from: number;
  to: number;
}

/**
 * The deletions that remove the children at `indices` (computed on one parse), each with one
 * adjacent separator and the whitespace that belonged to it. Comments are never deleted: where
 * one sits between, only the child and a comma go. For children appended as a block this is
 * the exact inverse of the append. `restoreCompact` turns a container left empty and blank
 * back into `[]`/`{}` (AIC opened it); `restored` says whether that happened.
 */
export function removalSpans(
  text: string,
  container: Container,
  indices: ReadonlySet<number>,
  restoreCompact: boolean,
): { spans: Deletion[]; restored: boolean } {
  const kids = children(container);
  const commas = container.commas;
  const spans: Deletion[] = [];
  const separator = (from: number, to: number) => onlyWhitespaceAnd(text, from, to, ",");
  const sorted = [...indices].sort((x, y) => x - y);
  let restored = false;
  for (let r = 0; r < sorted.length;) {
    // A run of consecutive removed children [a..b].
    const a = sorted[r]!;
    let b = a;
    while (sorted[r + 1] === b + 1) b = sorted[++r]!;
    r++;
    const child = (j: number) => kids[j]!;
    const whole = (j: number): Deletion => ({ from: kids[j]!.start, to: kids[j]!.end });
    const run = Array.from({ length: b - a + 1 }, (_, k) => a + k);
    if (a > 0) {
      // Kept child before the run: take each removed child with the comma before it.
      const rest = run.slice(1).every((j) => separator(child(j - 1).end, child(j).start));
      const commented = rest
        ? afterCommentSpans(text, child(a - 1).end, child(a).start, child(b).end)
        : undefined;
      if (rest && separator(child(a - 1).end, child(a).start)) {
        spans.push({ from: child(a - 1).end, to: child(b).end });
      } else if (commented) {
        spans.push(...commented);
      } else {
        for (const j of run) spans.push(whole(j), { from: commas[j - 1]!, to: commas[j - 1]! + 1 });
      }
    } else if (b < kids.length - 1) {
      // Kept child after the run: take each removed child with the comma after it.
      if (run.every((j) => separator(child(j).end, child(j + 1).start))) {
        spans.push({ from: child(a).start, to: child(b + 1).start });
      } else {
        for (const j of run) spans.push(whole(j), { from: commas[j]!, to: commas[j]! + 1 });
      }
    } else {
      // Every child goes.
      const open = container.start + 1;
      const close = container.end - 1;
      const last = commas[b]!;
      const clean =
        run.slice(1).every((j) => separator(child(j - 1).end, child(j).start)) &&
        (last < 0 || isBlank(text, child(b).end, last));
      if (clean) {
        const from = isBlank(text, open, child(a).start) ? open : child(a).start;
        const to = last >= 0 ? last + 1 : child(b).end;
        if (restoreCompact && isBlank(text, open, from) && isBlank(text, to, close)) {
          spans.push({ from: open, to: close });
          restored = true;
        } else {
          spans.push({ from, to });
        }
      } else {
        for (const j of run) {
          spans.push(whole(j));
          if (commas[j]! >= 0) spans.push({ from: commas[j]!, to: commas[j]! + 1 });
        }
      }
    }
  }
  return { spans, restored };
}

/**
 * The exact inverse of appendChildren's after-a-comment case: the run [runStart, runEnd) sits on
 * the lines after the kept child's same-line comment. With our trailing comma after the run the
 * comma before the comment was the user's; without it, it was ours.
 */
function afterCommentSpans(
  text: string,
  keptEnd: number,
  runStart: number,
  runEnd: number,
): Deletion[] | undefined {
  const tail = sameLineComment(text, keptEnd);
  if (!tail || tail.comma < 0 || !isBlank(text, tail.lineEnd, runStart)) return undefined;
  // The line break the comment ended on must follow the run, or the comment would swallow it.
  const breaksAt = (at: number) => /^\r?\n/.test(text.slice(at, at + 2));
  if (text[runEnd] === ",")
    return breaksAt(runEnd + 1) ? [{ from: tail.lineEnd, to: runEnd + 1 }] : undefined;
  if (tail.comma !== keptEnd || !breaksAt(runEnd)) return undefined;
  return [
    { from: keptEnd, to: keptEnd + 1 },
    { from: tail.lineEnd, to: runEnd },
  ];
}

/** Apply deletions computed against the same text, from the highest offset down. */
export function applyDeletions(text: string, spans: readonly Deletion[]): string {
  return [...spans]
    .sort((x, y) => y.from - x.from)
    .reduce((out, d) => splice(out, d.from, d.to, ""), text);
}

/** Remove one child (see removalSpans). */
export function removeChild(
  text: string,
  container: Container,
  index: number,
  restoreCompact: boolean,
): string {
  return applyDeletions(
    text,
    removalSpans(text, container, new Set([index]), restoreCompact).spans,
  );
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
