/** Number and time formatting shared by the diagnostics commands. */

export function int(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

export function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)}%`;
}

export function ms(value: number | null): string {
  if (value === null) return "—";
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`;
}

/** Local time, to the second: 2026-11-30 10:41:07. */
export function time(epochMs: number | null): string {
  if (epochMs === null) return "—";
  const d = new Date(epochMs);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

export function orDash(value: string | number | null | undefined): string {
  return value === null || value === undefined || value === "" ? "—" : String(value);
}

/** Rows of a {key: count} record, largest first. */
export function countRows(counts: Record<string, number>): string[][] {
  return Object.entries(counts)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([k, n]) => [k, int(n)]);
}
