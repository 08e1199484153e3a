/**
 * Pack: fit the budget with a real tokenizer. The best files go in whole; when one does not fit,
 * its relevant regions go in (whole functions, classes or methods that match the intent, with the
 * signature of the class around a method); then outlines (signatures only); then just paths.
 * A unit is never cut in the middle: it is in, or it is out.
 */
import type { Region, Tier } from "./types.js";
import type { CodeSymbol } from "./syntax.js";
import type { Intent } from "./intent.js";
import { cachedIdentifierTerms, termFrequencies } from "./terms.js";

export interface PackCandidate {
  path: string;
  lang: string;
  /** Exact token count of the raw file when known (cached), else undefined. */
  tokens?: number;
  estTokens: number;
}

export interface PackDeps {
  countTokens: (text: string) => number;
  /** Guarded (redacted) text of a file; line structure is preserved. */
  loadText: (path: string) => Promise<string>;
  /** Symbols with line ranges, or [] when the language has no parser. */
  loadSymbols: (path: string, text: string) => Promise<CodeSymbol[]>;
  /** Records an exact token count for the index cache. */
  noteTokens?: (path: string, tokens: number) => void;
}

export interface PackedItem {
  path: string;
  lang: string;
  tier: Tier;
  /** Tokens of this file's section (header and body). */
  tokens: number;
  regions?: Region[];
  /** Rendered body (code), absent for the path tier. */
  body?: string;
  /** Why this tier: "fits whole", "too large: 3 of 40 units match", ... */
  reason: string;
}

export interface PackOptions {
  budget: number;
  /** Tokens already spent by the intent and fixed scaffolding. */
  reserved: number;
  intent: Intent;
  termWeights: Map<string, number>;
  /** How many ranked files may receive content (beyond that: paths only). */
  maxContentFiles?: number;
  /** How many path-only entries to list at most. */
  maxPathEntries?: number;
}

/** Header + fence overhead of one file section, in tokens (counted once per shape). */
export function sectionHeader(path: string, tier: Tier, detail: string): string {
  return `## ${path} (${tier}${detail ? `: ${detail}` : ""})\n`;
}

function fenceFor(text: string, lang: string): [string, string] {
  let longest = 2;
  for (const m of text.matchAll(/`{3,}/g)) longest = Math.max(longest, m[0].length);
  const fence = "`".repeat(longest + 1);
  return [`${fence}${lang === "other" ? "" : lang}\n`, `${fence}\n`];
}

interface Unit {
  name: string;
  startLine: number;
  endLine: number;
  /** Lines of the enclosing class signature to show before it, if any. */
  context?: [number, number];
  score: number;
}

/** Leaf units: functions, methods, and classes small enough to keep whole or without methods. */
function unitsOf(symbols: CodeSymbol[], lines: string[]): Omit<Unit, "score">[] {
  const units: Omit<Unit, "score">[] = [];
  const byName = new Map(symbols.map((s) => [s.name, s]));
  const hasChildren = new Set(symbols.filter((s) => s.parent).map((s) => s.parent!));
  for (const s of symbols) {
    if (s.kind === "class" && hasChildren.has(s.name) && s.endLine - s.startLine > 60) {
      // A big class becomes its header (signature, docstring, class attributes) plus its methods.
      const firstChild = symbols.find((c) => c.parent === s.name);
      const headEnd = firstChild ? firstChild.startLine - 1 : s.headerEndLine;
      units.push({ name: s.name, startLine: s.startLine, endLine: Math.max(s.startLine, headEnd) });
      continue;
    }
    if (s.parent) {
      const parent = byName.get(s.parent);
      // Methods of a small class are inside the class unit already.
      if (parent && !(parent.endLine - parent.startLine > 60)) continue;
      units.push({
        name: s.name,
        startLine: s.startLine,
        endLine: s.endLine,
        context: parent ? [parent.startLine, parent.headerEndLine] : undefined,
      });
      continue;
    }
    units.push({ name: s.name, startLine: s.startLine, endLine: s.endLine });
  }
  if (units.length === 0 && lines.length > 0) {
    // No parser for this language: blocks of up to 60 lines split at blank lines.
    let start = 1;
    for (let i = 1; i <= lines.length; i++) {
      const atBlank = lines[i - 1]!.trim() === "";
      if ((atBlank && i - start >= 20) || i - start >= 60 || i === lines.length) {
        units.push({ name: `L${start}-${i}`, startLine: start, endLine: i });
        start = i + 1;
      }
    }
  }
  return units;
}

function scoreUnit(unit: Omit<Unit, "score">, lines: string[], opts: PackOptions): number {
  const text = lines.slice(unit.startLine - 1, unit.endLine).join("\n");
  const tf = termFrequencies(text);
  let score = 0;
  for (const [term, count] of tf) {
    const w = opts.termWeights.get(term);
    if (w) score += w * (1 + Math.log(count));
  }
  // Longer units match more terms by chance; damp by length a little.
  score /= Math.pow(Math.max(10, unit.endLine - unit.startLine + 1) / 10, 0.35);
  const short = unit.name.slice(unit.name.lastIndexOf(".") + 1);
  // The unit's own name says what it is about: its terms count once more.
  for (const t of new Set(cachedIdentifierTerms(short))) score += opts.termWeights.get(t) ?? 0;
  for (const id of opts.intent.identifiers) {
    const last = id.slice(id.lastIndexOf(".") + 1);
    if (id === unit.name || (last === short && short.length > 2))
      score += id === unit.name ? 20 : 8;
  }
  for (const f of opts.intent.frames) {
    if (f.line !== undefined && f.line >= unit.startLine && f.line <= unit.endLine) score += 5;
    if (f.symbol && f.symbol === short) score += 5;
  }
  return score;
}

function renderRegions(units: Unit[], lines: string[]): string {
  const sorted = [...units].sort((a, b) => a.startLine - b.startLine);
  const out: string[] = [];
  let lastLine = 0;
  const shownContext = new Set<string>();
  for (const u of sorted) {
    if (
      u.context &&
      !shownContext.has(`${u.context[0]}`) &&
      u.context[1] < u.startLine &&
      lastLine < u.context[0]
    ) {
      if (lastLine > 0 || u.context[0] > 1) out.push("...");
      out.push(...lines.slice(u.context[0] - 1, u.context[1]));
      shownContext.add(`${u.context[0]}`);
      lastLine = u.context[1];
    }
    if (u.startLine > lastLine + 1 || (lastLine === 0 && u.startLine > 1))
      out.push(`${indentOf(lines[u.startLine - 1] ?? "")}...`);
    out.push(...lines.slice(Math.max(u.startLine, lastLine + 1) - 1, u.endLine));
    lastLine = Math.max(lastLine, u.endLine);
  }
  if (lastLine < lines.length) out.push("...");
  return out.join("\n") + "\n";
}

function indentOf(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}

function renderOutline(symbols: CodeSymbol[], lines: string[]): string {
  const out: string[] = [];
  for (const s of symbols) {
    out.push(...lines.slice(s.startLine - 1, Math.min(s.headerEndLine, s.startLine + 5)));
  }
  return out.join("\n") + "\n";
}

function section(path: string, lang: string, tier: Tier, detail: string, body: string): string {
  const [open, close] = fenceFor(body, lang);
  return `${sectionHeader(path, tier, detail)}${open}${body}${body.endsWith("\n") ? "" : "\n"}${close}\n`;
}

function regionDetail(regions: Region[]): string {
  return regions.map((r) => `${r.symbol ?? ""} L${r.startLine}-${r.endLine}`.trim()).join(", ");
}

/** Packs ranked candidates into sections that fit `budget - reserved` tokens. */
export async function packFiles(
  candidates: PackCandidate[],
  deps: PackDeps,
  opts: PackOptions,
): Promise<PackedItem[]> {
  // A small margin: sections are counted one by one, the whole prompt once at the end.
  const available = Math.max(0, Math.floor((opts.budget - opts.reserved) * 0.985));
  let remaining = available;
  const items: PackedItem[] = [];
  const maxContent = opts.maxContentFiles ?? 40;
  const maxPaths = opts.maxPathEntries ?? 30;
  let pathEntries = 0;

  for (let rank = 0; rank < candidates.length; rank++) {
    const c = candidates[rank]!;
    /** List the file by path only; false when the path list is full or the path does not fit. */
    const addPathOnly = (reason: string): boolean => {
      if (pathEntries >= maxPaths) return false;
      const cost = deps.countTokens(`- ${c.path}\n`);
      if (cost > remaining) return false;
      items.push({ path: c.path, lang: c.lang, tier: "path", tokens: cost, reason });
      remaining -= cost;
      pathEntries++;
      return true;
    };
    if (rank >= maxContent || remaining < 80) {
      if (!addPathOnly(rank >= maxContent ? "below the content cut-off" : "budget exhausted"))
        break;
      continue;
    }
    // The first files may take a large share; later ones less, so several files get a look-in.
    const share = rank === 0 ? 0.4 : rank < 3 ? 0.25 : rank < 10 ? 0.12 : 0.08;
    const cap = Math.min(remaining, Math.floor(available * share));

    // Whole file, when it fits (skip reading a file whose estimate is far over the cap).
    let text: string | undefined;
    if ((c.tokens ?? c.estTokens * 0.7) <= cap) {
      text = await deps.loadText(c.path);
      let bodyTokens = c.tokens;
      if (bodyTokens === undefined) {
        bodyTokens = deps.countTokens(text);
        deps.noteTokens?.(c.path, bodyTokens);
      }
      const cost = bodyTokens + deps.countTokens(section(c.path, c.lang, "full", "", ""));
      if (cost <= cap) {
        items.push({
          path: c.path,
          lang: c.lang,
          tier: "full",
          tokens: cost,
          body: text,
          reason: "fits whole",
        });
        remaining -= cost;
        continue;
      }
    }
    text ??= await deps.loadText(c.path);
    const lines = text.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    const symbols = await deps.loadSymbols(c.path, text);

    // Regions: best-matching units first, as many as fit under the cap. Each unit is counted once;
    // the assembled section is counted exactly at the end (and trimmed if joins cost more).
    const units: Unit[] = unitsOf(symbols, lines).map((u) => ({
      ...u,
      score: scoreUnit(u, lines, opts),
    }));
    const ranked = units
      .filter((u) => u.score > 0)
      .sort((a, b) => b.score - a.score || a.startLine - b.startLine);
    // A method is read with its class's constructor: it sets up the state the method works on.
    const constructors = new Map<string, Unit>();
    for (const u of units) {
      const m = /^(.*)\.(__init__|constructor)$/.exec(u.name);
      if (m && u.endLine - u.startLine < 40) constructors.set(m[1]!, u);
    }
    for (const u of [...ranked]) {
      const owner = u.name.includes(".") ? u.name.slice(0, u.name.lastIndexOf(".")) : undefined;
      const ctor = owner === undefined ? undefined : constructors.get(owner);
      if (ctor && ctor !== u && !ranked.includes(ctor))
        ranked.splice(ranked.indexOf(u) + 1, 0, ctor);
    }
    const overhead = deps.countTokens(section(c.path, c.lang, "regions", "", "...\n")) + 2;
    let chosen: Unit[] = [];
    let estimate = overhead;
    for (const u of ranked) {
      const unitText = lines.slice(u.startLine - 1, u.endLine).join("\n");
      // Code never packs tighter than ~6 characters a token: skip a unit that cannot fit uncounted.
      if (estimate + unitText.length / 6 > cap) continue;
      let cost =
        deps.countTokens(unitText) +
        deps.countTokens(`${u.name} L${u.startLine}-${u.endLine}, `) +
        3;
      if (u.context && !chosen.some((x) => x.context?.[0] === u.context![0])) {
        cost += deps.countTokens(lines.slice(u.context[0] - 1, u.context[1]).join("\n")) + 2;
      }
      if (estimate + cost > cap) continue; // a smaller unit further down may still fit
      chosen.push(u);
      estimate += cost;
      if (chosen.length >= 12) break;
    }
    let best: { body: string; cost: number; regions: Region[] } | undefined;
    while (chosen.length > 0) {
      const body = renderRegions(chosen, lines);
      const regions = chosen
        .map((t) => ({ startLine: t.startLine, endLine: t.endLine, symbol: t.name }))
        .sort((a, b) => a.startLine - b.startLine);
      const cost = deps.countTokens(
        section(c.path, c.lang, "regions", regionDetail(regions), body),
      );
      if (cost <= cap) {
        best = { body, cost, regions };
        break;
      }
      chosen = chosen.slice(0, -1);
    }
    if (best) {
      items.push({
        path: c.path,
        lang: c.lang,
        tier: "regions",
        tokens: best.cost,
        regions: best.regions,
        body: best.body,
        reason: `too large whole; ${chosen.length} of ${units.length} units match the intent`,
      });
      remaining -= best.cost;
      continue;
    }

    // Outline: signatures only, when small.
    if (symbols.length > 0) {
      const body = renderOutline(symbols, lines);
      const cost = deps.countTokens(section(c.path, c.lang, "outline", "", body));
      if (cost <= Math.min(cap, Math.floor(available * 0.08))) {
        items.push({
          path: c.path,
          lang: c.lang,
          tier: "outline",
          tokens: cost,
          body,
          reason: "no matching unit fits; signatures only",
        });
        remaining -= cost;
        continue;
      }
    }
    addPathOnly("nothing of it fits");
  }
  return items;
}

export function renderSection(item: PackedItem): string {
  if (item.tier === "path" || item.body === undefined) return `- ${item.path}\n`;
  return section(
    item.path,
    item.lang,
    item.tier,
    item.regions ? regionDetail(item.regions) : "",
    item.body,
  );
}
