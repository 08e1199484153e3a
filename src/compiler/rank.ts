/**
 * Rank: fuse lexical relevance (BM25 over content, plus path and defined-name fields, with
 * identifier splitting), explicit mentions (a named path, module, symbol or stack frame), import
 * graph proximity to the strongest hits, and small priors (tests and docs down unless the intent
 * is about them). Every file's score parts are kept for the trace.
 */
import type { Intent } from "./intent.js";
import type { IndexedFile, Vocabulary } from "./project-index.js";
import { pathTerms } from "./terms.js";
import { importNeighbours, type ImportResolver } from "./imports.js";

export interface ScoreParts {
  content: number;
  /** BM25 over content with the summary line's terms only (a long report's noise left out). */
  summary: number;
  path: number;
  symbols: number;
  mention: number;
  frame: number;
  graph: number;
  related: number;
  previous: number;
  prior: number;
}

export interface RankedFile {
  path: string;
  score: number;
  parts: ScoreParts;
}

export interface RankInput {
  intent: Intent;
  files: IndexedFile[];
  vocab: Vocabulary;
  resolver: ImportResolver;
  /** Files named by tool outputs: near-certain. */
  relatedFiles?: string[];
  /** Files the agent already has open: a small nudge. */
  previousFiles?: string[];
  /** Import neighbours by path (computed from `files` when absent; a warm compiler caches it). */
  graph?: Map<string, string[]>;
}

/** Weights of the fused score; lexical parts are normalised to [0, 1] first. */
const WEIGHTS = {
  content: 1.0,
  summary: 0.3,
  path: 0.35,
  symbols: 0.6,
  mention: 0.9,
  frame: 1.2,
  graph: 0.2,
  related: 1.0,
  previous: 0.15,
  k1: 1.2,
  b: 0.75,
  testPrior: 0.3,
  docsPrior: 0.3,
  otherPrior: 0.45,
  auxPrior: 0.5,
  otherLanguagePrior: 0.6,
};

const TEST_PATH =
  /(^|\/)(tests?|testing|__tests__|spec|specs)\/|(^|\/)(test_[^/]*|[^/]*_tests?\.py|conftest\.py|[^/]*\.(test|spec)\.[jt]sx?)$/;
/** Examples, benchmarks and vendored third-party code: rarely what a task changes. */
const AUX_PATH =
  /(^|\/)(examples?|samples?|demos?|bench|benchmarks?|vendor|vendored|_vendor|third_party|thirdparty|extern|external)\//;
/** A `packages/` folder inside a Python package holds vendored copies (requests/packages/urllib3). */
const VENDORED_PY = /^[^/]+\/(.+\/)?packages\/.*\.py$/;
const DOC_PATH = /(^|\/)(docs?|documentation)\//;
const CODE_LANGS = new Set([
  "python",
  "typescript",
  "tsx",
  "javascript",
  "go",
  "rust",
  "java",
  "ruby",
  "c",
  "cpp",
  "csharp",
  "php",
  "swift",
  "kotlin",
  "scala",
  "vue",
  "svelte",
  "shell",
]);
const DOC_LANGS = new Set(["markdown", "rst", "text"]);

function isTestPath(path: string): boolean {
  return TEST_PATH.test(path);
}

/** Languages that are one family for the "main language" prior. */
const FAMILY: Record<string, string> = {
  typescript: "js",
  tsx: "js",
  javascript: "js",
  vue: "js",
  svelte: "js",
  c: "c",
  cpp: "c",
};
const familyOf = (lang: string) => FAMILY[lang] ?? lang;

/**
 * The project's main code language family, when one clearly dominates (>= 60% of code files):
 * code in other languages (a Python project's bundled JS, a TS app's helper scripts) is less
 * likely to be what a request is about.
 */
export function mainFamily(langs: string[]): string | undefined {
  const counts = new Map<string, number>();
  let total = 0;
  for (const lang of langs) {
    if (!CODE_LANGS.has(lang)) continue;
    const fam = familyOf(lang);
    counts.set(fam, (counts.get(fam) ?? 0) + 1);
    total++;
  }
  for (const [fam, c] of counts) if (c >= 0.6 * total) return fam;
  return undefined;
}

export function priorFor(path: string, lang: string, intent: Intent, main?: string): number {
  const aboutTests = intent.taskClass === "test";
  const aboutDocs = intent.taskClass === "docs";
  if (isTestPath(path)) return aboutTests ? 1 : WEIGHTS.testPrior;
  if (DOC_LANGS.has(lang) || DOC_PATH.test(path)) return aboutDocs ? 1 : WEIGHTS.docsPrior;
  if (!CODE_LANGS.has(lang)) return WEIGHTS.otherPrior;
  if (AUX_PATH.test(path) || VENDORED_PY.test(path)) return WEIGHTS.auxPrior;
  if (main !== undefined && familyOf(lang) !== main) return WEIGHTS.otherLanguagePrior;
  return 1;
}

/** Files whose path ends with the mentioned path (absolute paths in traces end with ours). */
function matchPath(mention: string, paths: string[], byBase: Map<string, string[]>): string[] {
  const clean = mention.replace(/\\/g, "/").replace(/^\.\//, "");
  const base = clean.slice(clean.lastIndexOf("/") + 1);
  const candidates = byBase.get(base) ?? [];
  const exact = candidates.filter(
    (p) => p === clean || clean.endsWith(`/${p}`) || p.endsWith(`/${clean}`),
  );
  if (exact.length > 0) return exact;
  // Same file name, different prefix (e.g. site-packages/requests/models.py vs src/requests/models.py):
  // match on the longest common tail of at least two segments.
  const tail = clean.split("/").slice(-2).join("/");
  if (tail.includes("/")) {
    const loose = candidates.filter((p) => p === tail || p.endsWith(`/${tail}`));
    if (loose.length > 0) return loose;
  }
  void paths;
  return [];
}

export interface RankOutput {
  ranked: RankedFile[];
  /** Query term -> intent weight x idf: how much each term says about relevance here. */
  termWeights: Map<string, number>;
}

/** Path terms, memoised: a warm process ranks the same paths again and again. */
const pathTermCache = new Map<string, string[]>();
function termsOfPath(path: string): string[] {
  let terms = pathTermCache.get(path);
  if (!terms) {
    terms = [...new Set(pathTerms(path))];
    if (pathTermCache.size > 200_000) pathTermCache.clear();
    pathTermCache.set(path, terms);
  }
  return terms;
}

export function rankFiles(input: RankInput): RankOutput {
  const { intent, files, vocab, resolver } = input;
  const n = files.length;
  if (n === 0) return { ranked: [], termWeights: new Map() };

  // Query terms present in the vocabulary, with their intent weights; slot[id] = query slot or -1.
  const queryIds = new Map<number, number>();
  for (const [term, weight] of intent.terms) {
    const id = vocab.lookup(term);
    if (id !== undefined) queryIds.set(id, weight);
  }
  const qIds = [...queryIds.keys()];
  const slot = new Int32Array(vocab.words.length).fill(-1);
  qIds.forEach((id, q) => (slot[id] = q));
  const nq = qIds.length;

  // One pass over every file's term pairs: document lengths and the tf of query terms.
  const lengths = new Float64Array(n);
  const tfs = new Float64Array(n * nq);
  const dfBySlot = new Float64Array(nq);
  for (let i = 0; i < n; i++) {
    const t = files[i]!.entry.termIds;
    let len = 0;
    for (let j = 0; j < t.length; j += 2) {
      len += t[j + 1]!;
      const q = slot[t[j]!]!;
      if (q >= 0) {
        tfs[i * nq + q] = t[j + 1]!;
        dfBySlot[q]!++;
      }
    }
    lengths[i] = len;
  }
  const df = new Map<number, number>(qIds.map((id, q) => [id, dfBySlot[q]!]));
  let avgLen = 0;
  for (const l of lengths) avgLen += l;
  avgLen = avgLen / n || 1;
  const idf = (d: number) => Math.log(1 + (n - d + 0.5) / (d + 0.5));

  // Term weights by surface form, for the path and name fields.
  const termIdf = new Map<string, number>();
  for (const [term, weight] of intent.terms) {
    const id = vocab.lookup(term);
    termIdf.set(term, weight * idf(id === undefined ? 0 : (df.get(id) ?? 0)));
  }

  const qWeight = qIds.map((id) => queryIds.get(id)! * idf(df.get(id)!));
  const inSummary = qIds.map((id) => intent.summaryTerms.has(vocab.words[id]!));
  const idIdf = new Map<number, number>();
  for (const [id, weight] of queryIds) idIdf.set(id, weight * idf(df.get(id) ?? 0));

  const paths = files.map((f) => f.path);
  const byBase = new Map<string, string[]>();
  for (const p of paths) {
    const base = p.slice(p.lastIndexOf("/") + 1);
    const list = byBase.get(base) ?? [];
    list.push(p);
    byBase.set(base, list);
  }

  // Who defines which names, for symbol mentions.
  const definers = new Map<string, number[]>();
  files.forEach((f, i) => {
    for (const d of f.entry.defs) {
      const list = definers.get(d) ?? [];
      list.push(i);
      definers.set(d, list);
    }
  });
  const indexOf = new Map(paths.map((p, i) => [p, i]));

  const main = mainFamily(files.map((f) => f.entry.lang));
  const parts: ScoreParts[] = files.map((f) => ({
    content: 0,
    summary: 0,
    path: 0,
    symbols: 0,
    mention: 0,
    frame: 0,
    graph: 0,
    related: 0,
    previous: 0,
    prior: priorFor(f.path, f.entry.lang, intent, main),
  }));

  // Lexical fields.
  const { k1, b } = WEIGHTS;
  for (let i = 0; i < n; i++) {
    const f = files[i]!;
    let content = 0;
    let summary = 0;
    const lengthNorm = k1 * (1 - b + (b * lengths[i]!) / avgLen);
    for (let q = 0; q < nq; q++) {
      const tf = tfs[i * nq + q]!;
      if (tf > 0) {
        const s = qWeight[q]! * ((tf * (k1 + 1)) / (tf + lengthNorm));
        content += s;
        if (inSummary[q]) summary += s;
      }
    }
    parts[i]!.content = content;
    parts[i]!.summary = summary;
    let pathScore = 0;
    for (const t of termsOfPath(f.path)) pathScore += termIdf.get(t) ?? 0;
    parts[i]!.path = pathScore;
    let symScore = 0;
    for (const id of f.entry.defTermIds) symScore += idIdf.get(id) ?? 0;
    parts[i]!.symbols = symScore;
  }
  for (const key of ["content", "summary", "path", "symbols"] as const) {
    let max = 0;
    for (const p of parts) max = Math.max(max, p[key]);
    if (max > 0) for (const p of parts) p[key] /= max;
  }

  // Explicit mentions: paths and modules. A bare file name shared by several files is weak
  // evidence (user output names its own test_foo.py); a dotted name resolving only to a top-level
  // package (`requests.get` -> requests/__init__.py) is weak too.
  const mentionStrength = new Map<string, number>();
  const mention = (p: string, strength: number) =>
    mentionStrength.set(p, Math.max(mentionStrength.get(p) ?? 0, strength));
  for (const m of intent.paths) {
    const hits = matchPath(m, paths, byBase);
    const bare = !m.includes("/");
    for (const hit of hits) mention(hit, (bare ? 0.5 : 1) / hits.length);
  }
  for (const id of intent.identifiers) {
    if (!id.includes(".")) continue;
    const segs = id.split(".");
    for (let k = segs.length; k >= 1; k--) {
      const file = resolver.resolve("__mention__.py", segs.slice(0, k).join("."));
      if (file) {
        mention(file, k >= 2 ? 1 : 0.25);
        break;
      }
    }
  }
  for (const [p, strength] of mentionStrength) {
    const i = indexOf.get(p);
    if (i !== undefined) parts[i]!.mention += strength;
  }

  // Explicit mentions: defined names. Rare names are strong evidence, common ones weak.
  for (const id of intent.identifiers) {
    const segs = id.split(".").filter((s) => s.length > 0);
    const name = segs[segs.length - 1]!;
    if (name.length < 3) continue;
    const owners = definers.get(name);
    if (!owners || owners.length > 20) continue;
    // A plain word ("node", "request") is weaker evidence than a code-shaped name ("add_marker").
    const codeShaped = /[_A-Z0-9]/.test(name.slice(1)) || segs.length > 1;
    const strength = (codeShaped ? 1 : 0.3) / Math.sqrt(owners.length);
    const qualifier = segs.length > 1 ? segs[segs.length - 2]! : undefined;
    for (const i of owners) {
      const qualified = qualifier !== undefined && files[i]!.entry.defs.includes(qualifier);
      parts[i]!.mention += 0.5 * strength * (qualified ? 1.5 : 1);
    }
  }

  // Stack frames: the files in them, and the functions they name.
  for (const frame of intent.frames) {
    const hits = matchPath(frame.path, paths, byBase);
    const bare = !frame.path.includes("/");
    for (const hit of hits) {
      const p = parts[indexOf.get(hit)!]!;
      p.frame = Math.max(p.frame, (bare ? 0.5 : 1) / hits.length);
    }
  }

  for (const p of input.relatedFiles ?? []) {
    const i = indexOf.get(p.replace(/^\.\//, ""));
    if (i !== undefined) parts[i]!.related = 1;
  }
  for (const p of input.previousFiles ?? []) {
    const i = indexOf.get(p.replace(/^\.\//, ""));
    if (i !== undefined) parts[i]!.previous = 1;
  }

  const base = (p: ScoreParts) =>
    p.prior *
      (WEIGHTS.content * p.content +
        WEIGHTS.summary * p.summary +
        WEIGHTS.path * p.path +
        WEIGHTS.symbols * p.symbols +
        WEIGHTS.mention * Math.min(p.mention, 1.5)) +
    WEIGHTS.frame * p.frame +
    WEIGHTS.related * p.related +
    WEIGHTS.previous * p.previous;

  // Import-graph proximity: neighbours (both directions) of the strongest hits get a share.
  const baseScores = parts.map(base);
  const order = [...baseScores.keys()].sort((a, c) => baseScores[c]! - baseScores[a]!);
  const top = order.slice(0, 5);
  const maxBase = baseScores[order[0]!] || 1;
  const graph = input.graph ?? importNeighbours(files, resolver);
  const ceiling = new Float64Array(n);
  for (const h of top) {
    const neighbours: number[] = [];
    for (const p of graph.get(files[h]!.path) ?? []) {
      const j = indexOf.get(p);
      if (j !== undefined) neighbours.push(j);
    }
    // A hub (imported by everything) says little about any one neighbour.
    const share = (baseScores[h]! / maxBase) * Math.min(1, 3 / Math.sqrt(neighbours.length));
    for (const j of neighbours) {
      // Proximity flows down only: it lifts weaker neighbours, never reorders the strong hits.
      if (baseScores[j]! >= baseScores[h]!) continue;
      if (share > parts[j]!.graph) {
        parts[j]!.graph = share;
        ceiling[j] = Math.max(ceiling[j]!, baseScores[h]!);
      }
    }
  }

  const ranked = files.map((f, i) => {
    const p = parts[i]!;
    // The lift never carries a neighbour past the hit it came from.
    const lifted = baseScores[i]! + p.prior * WEIGHTS.graph * p.graph;
    return {
      path: f.path,
      score: p.graph > 0 ? Math.min(lifted, ceiling[i]! * 0.999) : lifted,
      parts: p,
    };
  });
  ranked.sort((a, c) => c.score - a.score || (a.path < c.path ? -1 : a.path > c.path ? 1 : 0));
  return { ranked, termWeights: termIdf };
}
