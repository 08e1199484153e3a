/**
 * The on-disk index cache, under AIC_HOME (never inside the project). Two files per project:
 * - `index.json` + `terms.bin`: per-path stamps and per-content-hash entries; each entry's terms
 *   are (vocabulary id, count) pairs in one binary array, so a large project loads in tens of
 *   milliseconds without parsing millions of JSON numbers; rewritten only when files changed.
 * - `extras.json`: tree-sitter symbols and exact token counts, filled lazily as files are packed;
 *   small, so adding to it does not rewrite the big file.
 * Both are written atomically (temp file + rename); a corrupt or foreign file means a rebuild.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensurePrivateDir, PRIVATE_FILE_MODE } from "../shared/paths.js";
import { ProjectIndex, Vocabulary, type FileStamp, type IndexEntry } from "./project-index.js";
import type { CodeSymbol } from "./syntax.js";

/** Bump when the entry format or the term extraction changes: old caches are then ignored. */
const INDEX_FORMAT = 9;
const INDEX_FILE = "index.json";
const EXTRAS_FILE = "extras.json";
const TERMS_FILE = "terms.bin";

type SymbolTuple = [string, CodeSymbol["kind"], number, number, number, string?];

interface StoredEntry {
  l: string;
  c: number;
  n: number;
  e: number;
  /** [offset, length] of the term pairs in terms.bin (in 32-bit words). */
  t: [number, number];
  /** Terms of defined names, as vocabulary ids. */
  dt: number[];
  d: string[];
  i: string[];
  x?: string;
}

/** Import neighbours as saved: valid while the file set and tsconfig.json are unchanged. */
export interface StoredGraph {
  /** tsconfig.json text the graph was resolved with ("" when absent). */
  tsconfig: string;
  paths: string[];
  /** neighbours[i] = indexes into `paths`. */
  neighbours: number[][];
}

interface StoredIndex {
  format: number;
  graph?: StoredGraph;
  /** Random id also written at the start of terms.bin: a mismatch means a torn write. */
  generation: number;
  vocab: string[];
  /** path -> [size, mtimeMs, hash] */
  files: Record<string, [number, number, string]>;
  entries: Record<string, StoredEntry>;
}

interface StoredExtras {
  format: number;
  /** hash -> [exact tokens or null, symbols or null] */
  entries: Record<string, [number | null, SymbolTuple[] | null]>;
}

function readJson<T>(path: string): T | "missing" | "corrupt" {
  let raw: string;
  try {
    raw = readFileSync(path, "utf8");
  } catch {
    return "missing";
  }
  try {
    return JSON.parse(raw) as T;
  } catch {
    return "corrupt";
  }
}

function writeAtomic(path: string, body: unknown): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, body instanceof Uint32Array ? body : JSON.stringify(body), {
    mode: PRIVATE_FILE_MODE,
  });
  renameSync(tmp, path);
}

export function loadIndex(dir: string): {
  index: ProjectIndex;
  note?: string;
  graph?: StoredGraph;
} {
  const stored = readJson<StoredIndex>(join(dir, INDEX_FILE));
  if (stored === "missing") return { index: new ProjectIndex(), note: "no index cache yet" };
  if (stored === "corrupt")
    return { index: new ProjectIndex(), note: "index cache unreadable; rebuilt" };
  if (stored.format !== INDEX_FORMAT)
    return { index: new ProjectIndex(), note: "index cache from another version; rebuilt" };
  let terms: Uint32Array;
  try {
    const buf = readFileSync(join(dir, TERMS_FILE));
    terms = new Uint32Array(buf.buffer, buf.byteOffset, Math.floor(buf.byteLength / 4));
  } catch {
    return { index: new ProjectIndex(), note: "index cache incomplete; rebuilt" };
  }
  if (terms[0] !== stored.generation)
    return { index: new ProjectIndex(), note: "index cache incomplete; rebuilt" };
  const extras = readJson<StoredExtras>(join(dir, EXTRAS_FILE));
  const extra = typeof extras === "object" && extras.format === INDEX_FORMAT ? extras.entries : {};
  const entries = new Map<string, IndexEntry>();
  for (const hash in stored.entries) {
    const e = stored.entries[hash]!;
    const x = extra[hash];
    entries.set(hash, {
      lang: e.l,
      chars: e.c,
      lines: e.n,
      estTokens: e.e,
      termIds: terms.subarray(e.t[0], e.t[0] + e.t[1]),
      defTermIds: e.dt,
      defs: e.d,
      imports: e.i,
      symbols: x?.[1]?.map(([name, kind, startLine, endLine, headerEndLine, parent]) => ({
        name,
        kind,
        startLine,
        endLine,
        headerEndLine,
        ...(parent ? { parent } : {}),
      })),
      tokens: x?.[0] ?? undefined,
      skip: e.x,
    });
  }
  const stamps = new Map<string, FileStamp>();
  for (const path in stored.files) {
    const [size, mtimeMs, hash] = stored.files[path]!;
    stamps.set(path, { size, mtimeMs, hash });
  }
  return {
    index: new ProjectIndex(new Vocabulary(stored.vocab), entries, stamps),
    graph: stored.graph,
  };
}

/** Writes the big index file: call when files were added, changed or removed. */
export function saveIndex(dir: string, index: ProjectIndex, graph?: StoredGraph): void {
  const pruned = index.prune();
  ensurePrivateDir(dir);
  // Re-number the vocabulary only when entries went away, so dead terms do not pile up.
  const vocab = pruned > 0 ? new Vocabulary() : index.vocab;
  const remap = <T extends Uint32Array | number[]>(ids: T, pairs: boolean): T => {
    if (pruned === 0) return ids;
    const out = (
      ids instanceof Uint32Array ? new Uint32Array(ids.length) : new Array<number>(ids.length)
    ) as T;
    for (let i = 0; i < ids.length; i++) {
      out[i] = pairs && i % 2 === 1 ? ids[i]! : vocab.id(index.vocab.words[ids[i]!]!);
    }
    return out;
  };
  const entries: Record<string, StoredEntry> = {};
  let words = 1;
  for (const e of index.entries.values()) words += e.termIds.length;
  const terms = new Uint32Array(words);
  const generation = (Math.random() * 0xffffffff) >>> 0;
  terms[0] = generation;
  let offset = 1;
  for (const [hash, e] of index.entries) {
    terms.set(remap(e.termIds, true), offset);
    const stored: StoredEntry = {
      l: e.lang,
      c: e.chars,
      n: e.lines,
      e: e.estTokens,
      t: [offset, e.termIds.length],
      dt: remap(e.defTermIds, false),
      d: e.defs,
      i: e.imports,
    };
    offset += e.termIds.length;
    if (e.skip) stored.x = e.skip;
    entries[hash] = stored;
  }
  const files: StoredIndex["files"] = {};
  for (const [path, s] of index.stamps) files[path] = [s.size, s.mtimeMs, s.hash];
  writeAtomic(join(dir, TERMS_FILE), terms);
  writeAtomic(join(dir, INDEX_FILE), {
    format: INDEX_FORMAT,
    generation,
    vocab: vocab.words,
    files,
    entries,
    graph,
  } satisfies StoredIndex);
  saveExtras(dir, index);
  if (pruned > 0)
    index.adoptVocabulary(vocab, (e) => ({
      termIds: remap(e.termIds, true),
      defTermIds: remap(e.defTermIds, false),
    }));
}

/** Writes symbols and exact token counts: call when packing computed new ones. */
export function saveExtras(dir: string, index: ProjectIndex): void {
  ensurePrivateDir(dir);
  const entries: StoredExtras["entries"] = {};
  for (const [hash, e] of index.entries) {
    if (e.tokens === undefined && !e.symbols) continue;
    entries[hash] = [
      e.tokens ?? null,
      e.symbols
        ? e.symbols.map(
            (s) =>
              [
                s.name,
                s.kind,
                s.startLine,
                s.endLine,
                s.headerEndLine,
                ...(s.parent ? [s.parent] : []),
              ] as SymbolTuple,
          )
        : null,
    ];
  }
  writeAtomic(join(dir, EXTRAS_FILE), { format: INDEX_FORMAT, entries } satisfies StoredExtras);
}

export function toStoredGraph(
  tsconfig: string | undefined,
  graph: Map<string, string[]>,
): StoredGraph {
  const paths = [...graph.keys()].sort();
  const index = new Map(paths.map((p, i) => [p, i]));
  return {
    tsconfig: tsconfig ?? "",
    paths,
    neighbours: paths.map((p) =>
      graph
        .get(p)!
        .map((q) => index.get(q) ?? -1)
        .filter((i) => i >= 0),
    ),
  };
}

export function fromStoredGraph(stored: StoredGraph): Map<string, string[]> {
  return new Map(
    stored.paths.map((p, i) => [p, stored.neighbours[i]!.map((j) => stored.paths[j]!)]),
  );
}
