/** Plain aligned text tables and the title + one-line summary that heads every report. */
import type { Colours } from "./colour.js";

export interface Column {
  header: string;
  align?: "left" | "right";
  /** Longer cells are cut with an ellipsis. */
  maxWidth?: number;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

function visibleWidth(text: string): number {
  return Array.from(text.replace(ANSI, "")).length;
}

function fit(text: string, maxWidth: number | undefined): string {
  if (maxWidth === undefined) return text;
  const chars = Array.from(text.replace(/\s+/g, " "));
  return chars.length > maxWidth ? chars.slice(0, maxWidth - 1).join("") + "…" : chars.join("");
}

export function renderTable(columns: Column[], rows: string[][], c: Colours): string {
  const cells = rows.map((row) => columns.map((col, i) => fit(row[i] ?? "", col.maxWidth)));
  const widths = columns.map((col, i) =>
    Math.max(visibleWidth(col.header), ...cells.map((r) => visibleWidth(r[i] ?? ""))),
  );
  const line = (values: string[]) =>
    values
      .map((v, i) => {
        const pad = " ".repeat(widths[i]! - visibleWidth(v));
        return columns[i]!.align === "right" ? pad + v : v + pad;
      })
      .join("  ")
      .trimEnd();
  return [c.bold(line(columns.map((col) => col.header))), ...cells.map(line)]
    .map((l) => `  ${l}`)
    .join("\n");
}

export function renderHeading(title: string, summary: string, c: Colours): string {
  return `${c.bold(title)}\n${c.dim(summary)}`;
}

export interface Section {
  title?: string;
  body: string;
}

/** Title, summary line, then sections separated by blank lines. */
export function renderReport(
  title: string,
  summary: string,
  sections: Section[],
  c: Colours,
): string {
  const parts = [renderHeading(title, summary, c)];
  for (const s of sections) parts.push(s.title ? `${c.bold(s.title)}\n${s.body}` : s.body);
  return parts.join("\n\n") + "\n";
}
