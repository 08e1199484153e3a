/**
 * The surrounding document's formatting, so inserted text looks like the user's own: indent
 * unit (tabs or N spaces), line ending, and whether the file is written on one line.
 */
export interface Layout {
  /** One level of indentation. */
  unit: string;
  newline: "\n" | "\r\n";
  /** A file without line breaks gets single-line insertions. */
  inline: boolean;
}

export const DEFAULT_LAYOUT: Layout = { unit: "  ", newline: "\n", inline: false };

export function detectLayout(text: string): Layout {
  const firstBreak = text.indexOf("\n");
  if (firstBreak === -1) return { ...DEFAULT_LAYOUT, inline: text.length > 0 };
  const newline = firstBreak > 0 && text[firstBreak - 1] === "\r" ? "\r\n" : "\n";
  const indented = /\n([ \t]+)[^ \t\r\n]/.exec(text);
  let unit = DEFAULT_LAYOUT.unit;
  if (indented) {
    const ws = indented[1]!;
    unit = ws.startsWith("\t") ? "\t" : ws.replace(/\t/g, "");
    if (unit === "") unit = DEFAULT_LAYOUT.unit;
  }
  return { unit, newline, inline: false };
}

/** Leading whitespace of the line containing `offset`. */
export function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, offset))![0];
}

/** True when only spaces/tabs precede `offset` on its line. */
export function startsLine(text: string, offset: number): boolean {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*$/.test(text.slice(lineStart, offset));
}

/** A JSON scalar as we write it: strings via JSON.stringify, numbers in shortest form. */
export type FieldValue = string | number | boolean;

/**
 * Render a flat entry object ({command, ...fields}) at a given indentation. Multi-line in
 * multi-line documents, one line in one-line documents.
 */
export function renderEntry(
  entry: ReadonlyArray<readonly [string, FieldValue]>,
  indent: string,
  layout: Layout,
): string {
  const pairs = entry.map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`);
  if (layout.inline) return `{ ${pairs.join(", ")} }`;
  const inner = indent + layout.unit;
  return `{${layout.newline}${pairs.map((p) => inner + p).join("," + layout.newline)}${layout.newline}${indent}}`;
}
