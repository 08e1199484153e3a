/**
 * The on-disk index cache: one compact JSON file per project under AIC_HOME (never inside the
 * project). A shared vocabulary turns each file's terms into small integers, so a warm process
 * loads a large project's index in tens of milliseconds. Written atomically (temp file + rename).
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensurePrivateDir, PRIVATE_FILE_MODE } from "../shared/paths.js";
import { ProjectIndex, Vocabulary, type FileStamp, type IndexEntry } from "./project-index.js";
import type { CodeSymbol } from "./syntax.js";

/** Bump when the entry format or the term extraction changes: old caches are then ignored. */
export const INDEX_FORMAT = 4;
const FILE_NAME = "index.json";

type SymbolTuple = [string, CodeSymbol["kind"], number, number, number, string?];

interface StoredEntry {
  l: string;
  c: number;
  n: number;
  e: number;
  t: number[];
  d: string[];
  i: string[];
  s?: SymbolTuple[];
  k?: number;
  x?: string;
}

interface StoredIndex {
  format: number;
  vocab: string[];
  /** path -> [size, mtimeMs, hash] */
  files: Record<string, [number, number, string]>;
  entries: Record<string, StoredEntry>;
}

export function loadIndex(dir: string): { index: ProjectIndex; note?: string } {
  let raw: string;
  try {
    raw = readFileSync(join(dir, FILE_NAME), "utf8");
  } catch {
    return { index: new ProjectIndex(), note: "no index cache yet" };
  }
  let stored: StoredIndex;
  try {
    stored = JSON.parse(raw) as StoredIndex;
  } catch {
    return { index: new ProjectIndex(), note: "index cache unreadable; rebuilt" };
  }
  if (stored.format !== INDEX_FORMAT)
    return { index: new ProjectIndex(), note: "index cache from another version; rebuilt" };
  const entries = new Map<string, IndexEntry>();
  for (const [hash, e] of Object.entries(stored.entries)) {
    entries.set(hash, {
      lang: e.l,
      chars: e.c,
      lines: e.n,
      estTokens: e.e,
      termIds: e.t,
      defs: e.d,
      imports: e.i,
      symbols: e.s?.map(([name, kind, startLine, endLine, headerEndLine, parent]) => ({
        name,
        kind,
        startLine,
        endLine,
        headerEndLine,
        ...(parent ? { parent } : {}),
      })),
      tokens: e.k,
      skip: e.x,
    });
  }
  const stamps = new Map<string, FileStamp>();
  for (const [path, [size, mtimeMs, hash]] of Object.entries(stored.files))
    stamps.set(path, { size, mtimeMs, hash });
  return { index: new ProjectIndex(new Vocabulary(stored.vocab), entries, stamps) };
}

export function saveIndex(dir: string, index: ProjectIndex): void {
  index.prune();
  // Re-number the vocabulary so terms of deleted files do not accumulate forever.
  const vocab = new Vocabulary();
  const entries: Record<string, StoredEntry> = {};
  for (const [hash, e] of index.entries) {
    const t: number[] = new Array<number>(e.termIds.length);
    for (let i = 0; i < e.termIds.length; i += 2) {
      t[i] = vocab.id(index.vocab.words[e.termIds[i]!]!);
      t[i + 1] = e.termIds[i + 1]!;
    }
    const stored: StoredEntry = {
      l: e.lang,
      c: e.chars,
      n: e.lines,
      e: e.estTokens,
      t,
      d: e.defs,
      i: e.imports,
    };
    if (e.symbols)
      stored.s = e.symbols.map(
        (s) =>
          [
            s.name,
            s.kind,
            s.startLine,
            s.endLine,
            s.headerEndLine,
            ...(s.parent ? [s.parent] : []),
          ] as SymbolTuple,
      );
    if (e.tokens !== undefined) stored.k = e.tokens;
    if (e.skip) stored.x = e.skip;
    entries[hash] = stored;
  }
  const files: StoredIndex["files"] = {};
  for (const [path, s] of index.stamps) files[path] = [s.size, s.mtimeMs, s.hash];
  const body: StoredIndex = { format: INDEX_FORMAT, vocab: vocab.words, files, entries };
  ensurePrivateDir(dir);
  const target = join(dir, FILE_NAME);
  const tmp = `${target}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(body), { mode: PRIVATE_FILE_MODE });
  renameSync(tmp, target);
}
