/**
 * Index: per file its language, size in tokens (estimated; exact counts are added lazily by the
 * packer), term frequencies, defined names, raw imports and, once tree-sitter has parsed it, its
 * symbols with line ranges. Entries are keyed by content hash; a path -> (size, mtime, hash) table
 * lets a later compile skip reading files whose stat did not change.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ScannedFile } from "./scan.js";
import { forEachIdentifier, identifierTerms } from "./terms.js";
import { extractImports } from "./imports.js";
import type { CodeSymbol } from "./syntax.js";

export interface IndexEntry {
  lang: string;
  chars: number;
  lines: number;
  /** chars/4-style estimate for ranking and the funnel; packing uses exact counts. */
  estTokens: number;
  /** Flat pairs [termId, count, ...] into the owning index's vocabulary. */
  termIds: Uint32Array;
  /** Terms of the defined names, as vocabulary ids (the "symbols" field of ranking). */
  defTermIds: number[];
  /** Names defined in the file (cheap regex pass over every file). */
  defs: string[];
  imports: string[];
  /** Tree-sitter symbols, filled when the file is first needed for packing. */
  symbols?: CodeSymbol[];
  /** Exact token count of the raw content, filled lazily. */
  tokens?: number;
  /** Set when the file is not text: it is skipped with this reason. */
  skip?: string;
}

export interface FileStamp {
  size: number;
  mtimeMs: number;
  hash: string;
}

const LANGS: Record<string, string> = {
  py: "python",
  pyi: "python",
  pyx: "python",
  ts: "typescript",
  mts: "typescript",
  cts: "typescript",
  tsx: "tsx",
  js: "javascript",
  jsx: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  md: "markdown",
  mdx: "markdown",
  rst: "rst",
  txt: "text",
  json: "json",
  toml: "toml",
  yaml: "yaml",
  yml: "yaml",
  cfg: "ini",
  ini: "ini",
  go: "go",
  rs: "rust",
  java: "java",
  rb: "ruby",
  c: "c",
  h: "c",
  cc: "cpp",
  cpp: "cpp",
  hpp: "cpp",
  cs: "csharp",
  php: "php",
  swift: "swift",
  kt: "kotlin",
  scala: "scala",
  sh: "shell",
  bash: "shell",
  css: "css",
  scss: "css",
  html: "html",
  vue: "vue",
  svelte: "svelte",
  sql: "sql",
};

function languageOf(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const ext = name.includes(".") ? name.slice(name.lastIndexOf(".") + 1).toLowerCase() : "";
  return LANGS[ext] ?? "other";
}

const PY_DEF = /^[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]+([A-Za-z_]\w*)/gm;
const JS_DEF =
  /^[ \t]*(?:export[ \t]+)?(?:default[ \t]+)?(?:declare[ \t]+)?(?:abstract[ \t]+)?(?:async[ \t]+)?(?:function\*?|class|interface|type|enum|const|let|var)[ \t]+([A-Za-z_$][\w$]*)/gm;
const JS_METHOD =
  /^[ \t]+(?:(?:public|private|protected|static|async|readonly|get|set|override)[ \t]+)*([A-Za-z_$][\w$]*)[ \t]*\([^)\n]*\)[ \t]*(?::[^{\n]*)?\{/gm;
const NOT_METHODS = new Set([
  "if",
  "for",
  "while",
  "switch",
  "catch",
  "function",
  "return",
  "with",
]);

function extractDefs(lang: string, source: string): string[] {
  const out = new Set<string>();
  if (lang === "python") for (const m of source.matchAll(PY_DEF)) out.add(m[1]!);
  else if (lang === "typescript" || lang === "tsx" || lang === "javascript") {
    for (const m of source.matchAll(JS_DEF)) out.add(m[1]!);
    for (const m of source.matchAll(JS_METHOD)) if (!NOT_METHODS.has(m[1]!)) out.add(m[1]!);
  }
  return [...out];
}

function contentHash(buf: Buffer): string {
  return createHash("sha1").update(buf).digest("hex");
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Decodes a file as UTF-8 text or says why it is not text. */
export function decodeText(buf: Buffer): { text: string } | { skip: string } {
  if (buf.subarray(0, 8000).includes(0)) return { skip: "binary content" };
  try {
    return { text: utf8.decode(buf) };
  } catch {
    return { skip: "not UTF-8 text" };
  }
}

function estimateTokens(text: string): number {
  return Math.ceil(text.length / 3.6);
}

/** Vocabulary shared by all entries of one project's index, so entries store small numbers. */
export class Vocabulary {
  readonly words: string[];
  private readonly ids = new Map<string, number>();
  constructor(words: string[] = []) {
    this.words = words;
    words.forEach((w, i) => this.ids.set(w, i));
  }
  id(word: string): number {
    let id = this.ids.get(word);
    if (id === undefined) {
      id = this.words.length;
      this.words.push(word);
      this.ids.set(word, id);
    }
    return id;
  }
  lookup(word: string): number | undefined {
    return this.ids.get(word);
  }
}

/** Identifier -> its term ids, shared across files: code repeats the same names everywhere. */
export type TermIdCache = Map<string, number[]>;

/** Scratch counters indexed by term id, reused across files (a Map per file costs 5x more). */
let scratch = new Uint32Array(1 << 16);

function termCounts(text: string, vocab: Vocabulary, cache: TermIdCache): Uint32Array {
  const touched: number[] = [];
  forEachIdentifier(text, (word) => {
    let ids = cache.get(word);
    if (!ids) {
      ids = identifierTerms(word).map((t) => vocab.id(t));
      if (cache.size > 300_000) cache.clear();
      cache.set(word, ids);
      if (vocab.words.length > scratch.length) {
        const grown = new Uint32Array(Math.max(vocab.words.length, scratch.length * 2));
        grown.set(scratch);
        scratch = grown;
      }
    }
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k]!;
      if (scratch[id] === 0) touched.push(id);
      scratch[id]!++;
    }
  });
  const out = new Uint32Array(touched.length * 2);
  let k = 0;
  for (const id of touched) {
    out[k++] = id;
    out[k++] = scratch[id]!;
    scratch[id] = 0;
  }
  return out;
}

export function buildEntry(
  path: string,
  text: string,
  vocab: Vocabulary,
  cache: TermIdCache = new Map(),
): IndexEntry {
  const lang = languageOf(path);
  const termIds = termCounts(text, vocab, cache);
  const defs = extractDefs(lang, text);
  const defTerms = new Set<number>();
  for (const d of defs) for (const t of identifierTerms(d)) defTerms.add(vocab.id(t));
  let lines = 1;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) lines++;
  return {
    lang,
    chars: text.length,
    lines,
    estTokens: estimateTokens(text),
    termIds,
    defTermIds: [...defTerms],
    defs,
    imports: extractImports(path, text),
  };
}

export interface IndexedFile {
  path: string;
  hash: string;
  entry: IndexEntry;
}

export interface RefreshResult {
  files: IndexedFile[];
  stats: RefreshStats;
  /** Whether anything was added, changed or removed (the cache needs writing). */
  changed: boolean;
}

/** What an indexing thread sends back: entries with ids into its own word list. */
export interface WorkerResult {
  words: string[];
  files: { file: ScannedFile; hash: string; entry?: IndexEntry }[];
}

export type WorkerIndexer = (root: string, files: ScannedFile[]) => Promise<WorkerResult>;

/**
 * Reads and indexes one file: its hash, and a new entry unless `known(hash)`. Undefined when the
 * file cannot be read.
 */
export function indexFile(
  root: string,
  f: ScannedFile,
  vocab: Vocabulary,
  cache: TermIdCache,
  known: (hash: string) => boolean,
): { hash: string; entry?: IndexEntry } | undefined {
  let buf: Buffer;
  try {
    buf = readFileSync(join(root, f.path));
  } catch {
    return undefined;
  }
  // The language is part of the key: the same bytes in a .py and a .txt index differently.
  const lang = languageOf(f.path);
  const hash = `${contentHash(buf)}:${lang}`;
  if (known(hash)) return { hash };
  const decoded = decodeText(buf);
  const entry: IndexEntry =
    "skip" in decoded
      ? {
          lang,
          chars: 0,
          lines: 0,
          estTokens: 0,
          termIds: new Uint32Array(0),
          defTermIds: [],
          defs: [],
          imports: [],
          skip: decoded.skip,
        }
      : buildEntry(f.path, decoded.text, vocab, cache);
  return { hash, entry };
}

export interface RefreshStats {
  read: number;
  indexed: number;
  reused: number;
  removed: number;
}

/** One project's index in memory; persisted by index-cache.ts. */
export class ProjectIndex {
  private termIdCache: TermIdCache = new Map();

  constructor(
    public vocab: Vocabulary = new Vocabulary(),
    readonly entries: Map<string, IndexEntry> = new Map(),
    readonly stamps: Map<string, FileStamp> = new Map(),
  ) {}

  /** Brings the index up to date with a scan: re-reads only files whose size or mtime changed. */
  refresh(root: string, files: ScannedFile[]): RefreshResult {
    const stale = this.staleFiles(files);
    const stats: RefreshStats = {
      read: 0,
      indexed: 0,
      reused: files.length - stale.length,
      removed: 0,
    };
    for (const f of stale) this.ingest(root, f, stats);
    return this.finish(files, stats, stale.length > 0);
  }

  /**
   * refresh(), with the stale files split between this thread and `indexInWorker` (another
   * thread) when there are many: a first compile of a large project uses both cores.
   */
  async refreshParallel(
    root: string,
    files: ScannedFile[],
    indexInWorker: WorkerIndexer,
    minFiles = 300,
  ): Promise<RefreshResult> {
    const stale = this.staleFiles(files);
    if (stale.length < minFiles) return this.refresh(root, files);
    const stats: RefreshStats = {
      read: 0,
      indexed: 0,
      reused: files.length - stale.length,
      removed: 0,
    };
    const half = Math.ceil(stale.length / 2);
    const remote = indexInWorker(root, stale.slice(half)).catch(() => undefined);
    for (const f of stale.slice(0, half)) this.ingest(root, f, stats);
    const result = await remote;
    if (result) this.merge(result, stats);
    else for (const f of stale.slice(half)) this.ingest(root, f, stats); // worker failed: do it here
    return this.finish(files, stats, true);
  }

  private staleFiles(files: ScannedFile[]): ScannedFile[] {
    return files.filter((f) => {
      const stamp = this.stamps.get(f.path);
      return !(
        stamp &&
        stamp.size === f.size &&
        stamp.mtimeMs === f.mtimeMs &&
        this.entries.has(stamp.hash)
      );
    });
  }

  private ingest(root: string, f: ScannedFile, stats: RefreshStats): void {
    const indexed = indexFile(root, f, this.vocab, this.termIdCache, (hash) =>
      this.entries.has(hash),
    );
    if (!indexed) return; // vanished or unreadable between scan and read
    stats.read++;
    if (indexed.entry) {
      this.entries.set(indexed.hash, indexed.entry);
      stats.indexed++;
    }
    this.stamps.set(f.path, { size: f.size, mtimeMs: f.mtimeMs, hash: indexed.hash });
  }

  /** Adopts entries built by another thread against its own vocabulary. */
  private merge(result: WorkerResult, stats: RefreshStats): void {
    const ids = result.words.map((w) => this.vocab.id(w));
    for (const r of result.files) {
      stats.read++;
      if (r.entry && !this.entries.has(r.hash)) {
        const t = r.entry.termIds;
        for (let i = 0; i < t.length; i += 2) t[i] = ids[t[i]!]!;
        r.entry.defTermIds = r.entry.defTermIds.map((id) => ids[id]!);
        this.entries.set(r.hash, r.entry);
        stats.indexed++;
      }
      this.stamps.set(r.file.path, { size: r.file.size, mtimeMs: r.file.mtimeMs, hash: r.hash });
    }
  }

  private finish(files: ScannedFile[], stats: RefreshStats, changed: boolean): RefreshResult {
    const out: IndexedFile[] = [];
    const live = new Set<string>();
    for (const f of files) {
      live.add(f.path);
      const stamp = this.stamps.get(f.path);
      const entry = stamp && this.entries.get(stamp.hash);
      if (stamp && entry) out.push({ path: f.path, hash: stamp.hash, entry });
    }
    for (const path of [...this.stamps.keys()]) {
      if (!live.has(path)) {
        this.stamps.delete(path);
        stats.removed++;
        changed = true;
      }
    }
    return { files: out, stats, changed };
  }

  /** Drops entries no path refers to any more (old versions of edited files); returns how many. */
  prune(): number {
    const used = new Set([...this.stamps.values()].map((s) => s.hash));
    let removed = 0;
    for (const hash of [...this.entries.keys()]) {
      if (!used.has(hash)) {
        this.entries.delete(hash);
        removed++;
      }
    }
    return removed;
  }

  /** Switches to a re-numbered vocabulary (after pruning), rewriting each entry's ids. */
  adoptVocabulary(
    vocab: Vocabulary,
    remap: (e: IndexEntry) => Pick<IndexEntry, "termIds" | "defTermIds">,
  ): void {
    for (const e of this.entries.values()) Object.assign(e, remap(e));
    this.vocab = vocab;
    this.termIdCache = new Map();
  }
}
