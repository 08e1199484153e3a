/**
 * The compile pipeline: scan -> intent -> index -> rank -> guard -> pack -> render. A compiler
 * instance keeps each project's index warm in memory (the daemon holds one for its lifetime) and
 * notices changed, added and removed files from their stat before answering; the on-disk cache
 * under AIC_HOME lets a cold process re-read only files that changed.
 */
import { readFileSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { aicHome, projectHash } from "../shared/paths.js";
import type { CompiledContext, CompileRequest, CompileTrace } from "./types.js";
import { scanProject, readTextIfPresent, type ScanDeps, defaultScanDeps } from "./scan.js";
import { analyzeIntent } from "./intent.js";
import { ProjectIndex, type IndexedFile, type WorkerIndexer } from "./project-index.js";
import { indexInWorker } from "./worker-indexer.js";
import {
  fromStoredGraph,
  loadIndex,
  saveExtras,
  saveIndex,
  toStoredGraph,
  type StoredGraph,
} from "./index-cache.js";
import { ImportResolver, importNeighbours, readTsPaths } from "./imports.js";
import { rankFiles } from "./rank.js";
import {
  compileAllowPatterns,
  defaultGuardDeps,
  forbiddenFileReason,
  guardText,
  type GuardDeps,
  type GuardFinding,
} from "./guard.js";
import { packFiles, type PackedItem } from "./pack.js";
import { renderIntent, renderLeftOut, renderPrompt, type LeftOut } from "./render.js";
import { extractSymbols, syntaxLanguage } from "./syntax.js";
import { countTokens as defaultCountTokens } from "./tokens.js";

export const DEFAULT_BUDGET = 8000;
/** Below this the prompt cannot hold the intent and one useful section. */
export const MIN_BUDGET = 200;

/** A request the compiler cannot serve: the message says what and how to fix it. */
export class CompileInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CompileInputError";
  }
}

export interface CompilerDeps {
  scan: ScanDeps;
  guard: GuardDeps;
  countTokens: (text: string) => Promise<(text: string) => number>;
  now: () => number;
  /** Indexes part of a large first scan on another thread; absent = all in this thread. */
  indexInWorker?: WorkerIndexer;
}

const defaultCompilerDeps: CompilerDeps = {
  scan: defaultScanDeps,
  guard: defaultGuardDeps,
  countTokens: defaultCountTokens,
  now: () => performance.now(),
  indexInWorker,
};

export interface CompilerOptions {
  /** Folder holding one index cache per project; default `$AIC_HOME/cache`. */
  cacheRoot?: string;
  deps?: Partial<CompilerDeps>;
}

export interface Compiler {
  compile(request: CompileRequest): Promise<CompiledContext>;
  /** Forget a project's warm index (the on-disk cache stays valid). */
  invalidate(projectRoot: string): void;
}

interface ProjectState {
  /** This project's on-disk index cache folder. */
  cacheDir: string;
  index: ProjectIndex;
  /** Guarded text of recently packed files, by content hash (bounded). */
  guarded: BoundedMap<string, { text: string; findings: GuardFinding[] }>;
  loadNote?: string;
  /** Import resolution for the current file set; dropped when files or tsconfig.json change. */
  imports?: {
    tsconfig: string | undefined;
    resolver: ImportResolver;
    graph: Map<string, string[]>;
  };
  /** The graph saved with the on-disk index, used once if nothing changed since. */
  storedGraph?: StoredGraph;
}

function validateRequest(request: CompileRequest): {
  root: string;
  budget: number;
  intent: string;
} {
  if (typeof request.projectRoot !== "string" || request.projectRoot.trim() === "")
    throw new CompileInputError("No project given: pass the project folder (--project DIR).");
  const root = resolve(request.projectRoot);
  let isDir = false;
  try {
    isDir = statSync(root).isDirectory();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new CompileInputError(
      code === "ENOENT"
        ? `Project folder ${root} does not exist: check the path given to --project.`
        : `Project folder ${root} cannot be read (${code ?? (err as Error).message}): check its permissions.`,
    );
  }
  if (!isDir)
    throw new CompileInputError(
      `Project path ${root} is not a folder: pass the project's root folder.`,
    );
  const intent = typeof request.intent === "string" ? request.intent.trim() : "";
  if (intent === "")
    throw new CompileInputError(
      "The intent is empty: say what the task is (--intent TEXT or --intent-file F).",
    );
  const budget = request.budget ?? DEFAULT_BUDGET;
  if (typeof budget !== "number" || !Number.isInteger(budget) || budget <= 0)
    throw new CompileInputError(
      `Budget ${String(budget)} is not a positive whole number of tokens: pass e.g. --budget 8000.`,
    );
  if (budget < MIN_BUDGET)
    throw new CompileInputError(
      `Budget ${budget} is too small: it must be at least ${MIN_BUDGET} tokens.`,
    );
  if (!isAbsolute(request.projectRoot) && request.projectRoot.startsWith("~"))
    throw new CompileInputError(
      `Project path ${request.projectRoot} starts with "~": pass an absolute path.`,
    );
  return { root, budget, intent };
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;

export function createCompiler(options: CompilerOptions = {}): Compiler {
  const deps: CompilerDeps = { ...defaultCompilerDeps, ...options.deps };
  const cacheRoot = options.cacheRoot ?? join(aicHome(), "cache");
  const projects = new Map<string, ProjectState>();

  const stateFor = (root: string): ProjectState => {
    let state = projects.get(root);
    if (!state) {
      const cacheDir = join(cacheRoot, projectHash(root));
      const loaded = loadIndex(cacheDir);
      state = {
        cacheDir,
        index: loaded.index,
        loadNote: loaded.note,
        guarded: new BoundedMap(256),
        storedGraph: loaded.graph,
      };
      projects.set(root, state);
    }
    return state;
  };

  /**
   * Compiles of one project run one at a time (a daemon serves several conversations): the index
   * they share is refreshed and saved between them, never during one.
   */
  const queues = new Map<string, Promise<unknown>>();
  async function compile(request: CompileRequest): Promise<CompiledContext> {
    const { root } = validateRequest(request);
    const previous = queues.get(root) ?? Promise.resolve();
    const run = previous.then(() => compileNow(request));
    const settled = run.catch(() => undefined);
    queues.set(root, settled);
    void settled.then(() => {
      if (queues.get(root) === settled) queues.delete(root);
    });
    return run;
  }

  async function compileNow(request: CompileRequest): Promise<CompiledContext> {
    const { root, budget, intent: intentText } = validateRequest(request);
    const allowPatterns = compileAllowPatterns(request.guardAllowPatterns);
    const t0 = deps.now();
    const timings: Record<string, number> = {};
    const lap = (name: string, since: number) => {
      const now = deps.now();
      timings[name] = Math.round((now - since) * 10) / 10;
      return now;
    };

    // 1. Scan.
    const scan = scanProject(root, deps.scan);
    const forbidden: { path: string; reason: string }[] = [];
    const allowed = scan.files.filter((f) => {
      const reason = forbiddenFileReason(f.path);
      if (reason) forbidden.push({ path: f.path, reason });
      return !reason;
    });
    let t = lap("scan", t0);

    // 2. Intent (tool outputs add their stack frames and identifiers at a lower weight).
    const toolText = (request.toolOutputs ?? [])
      .map((o) => o.content)
      .filter((c) => typeof c === "string" && c.length > 0);
    const intent = analyzeIntent(intentText, { extraText: toolText });
    t = lap("intent", t);

    // 3. Index.
    const state = stateFor(root);
    const refreshed = deps.indexInWorker
      ? await state.index.refreshParallel(root, allowed, deps.indexInWorker)
      : state.index.refresh(root, allowed);
    let extrasDirty = false;
    const nonText = refreshed.files.filter((f) => f.entry.skip);
    const indexed = refreshed.files.filter((f) => !f.entry.skip);
    t = lap("index", t);

    // 4. Rank.
    const tsconfig = readTextIfPresent(join(root, "tsconfig.json"));
    if (refreshed.changed || !state.imports || state.imports.tsconfig !== tsconfig) {
      const resolver = new ImportResolver(
        indexed.map((f) => f.path),
        readTsPaths(tsconfig),
      );
      const stored = state.storedGraph;
      const reuse =
        !refreshed.changed && stored !== undefined && stored.tsconfig === (tsconfig ?? "");
      state.imports = {
        tsconfig,
        resolver,
        graph: reuse ? fromStoredGraph(stored) : importNeighbours(indexed, resolver),
      };
    }
    state.storedGraph = undefined;
    const { resolver, graph } = state.imports;
    const related = (request.toolOutputs ?? []).flatMap((o) => o.relatedFiles ?? []);
    const { ranked, termWeights } = rankFiles({
      intent,
      files: indexed,
      vocab: state.index.vocab,
      resolver,
      relatedFiles: related,
      previousFiles: request.previousFiles,
      graph,
    });
    t = lap("rank", t);

    // 5 + 6. Guard (per file, as the packer reads it) and pack.
    const count = await deps.countTokens(intentText);
    const byPath = new Map<string, IndexedFile>(indexed.map((f) => [f.path, f]));
    const guarded = new Map<string, { text: string; findings: GuardFinding[] }>();
    const guardKey = (request.guardAllowPatterns ?? []).join("\u0000");
    const loadText = async (path: string) => {
      let g = guarded.get(path);
      if (!g) {
        // Guarded text is remembered by content hash: the same files are packed again and again.
        const key = `${byPath.get(path)!.hash}\u0001${path}\u0001${guardKey}`;
        g = state.guarded.get(key);
        if (!g) {
          const raw = readFileSync(join(root, path), "utf8");
          g = await guardText(path, raw, allowPatterns, deps.guard);
          state.guarded.set(key, g);
        }
        guarded.set(path, g);
      }
      return g.text;
    };
    const loadSymbols = async (path: string, text: string) => {
      const f = byPath.get(path)!;
      if (f.entry.symbols) return f.entry.symbols;
      const lang = syntaxLanguage(path);
      if (!lang) return [];
      f.entry.symbols = await extractSymbols(lang, text);
      extrasDirty = true;
      return f.entry.symbols;
    };
    // A report longer than half the budget is shown truncated (analysis used all of it).
    const shownIntent = fitIntent(intentText, Math.floor(budget / 2), count);
    const intentSection = renderIntent(shownIntent);
    const leftOutAllowance = count(
      renderLeftOut({
        unlisted: 99999,
        forbidden: 999,
        skipped: 99999,
        redactions: 999,
        injections: 999,
        pathOnly: 99,
      }),
    );
    const reserved = count(intentSection) + leftOutAllowance + 40;
    let items: PackedItem[] = await packFiles(
      ranked.map((r) => {
        const e = byPath.get(r.path)!.entry;
        return { path: r.path, lang: e.lang, tokens: e.tokens, estTokens: e.estTokens };
      }),
      {
        countTokens: count,
        loadText,
        loadSymbols,
        noteTokens: (path, tokens) => {
          byPath.get(path)!.entry.tokens = tokens;
          extrasDirty = true;
        },
      },
      { budget, reserved, intent, termWeights },
    );
    t = lap("pack", t);

    // 7. Render; the final count is exact, and sections are dropped from the end if it is over.
    const left = (): LeftOut => {
      const findings = items.flatMap((i) => guarded.get(i.path)?.findings ?? []);
      return {
        unlisted: Math.max(0, ranked.length - items.length),
        forbidden: forbidden.length,
        skipped: scan.skipped.length + nonText.length,
        redactions: findings.filter((f) => f.type !== "prompt-injection").length,
        injections: findings.filter((f) => f.type === "prompt-injection").length,
        pathOnly: items.filter((i) => i.tier === "path").length,
      };
    };
    let prompt = renderPrompt(shownIntent, items, left(), ranked.length);
    let used = count(prompt);
    while (used > budget && items.length > 0) {
      items = items.slice(0, -1);
      prompt = renderPrompt(shownIntent, items, left(), ranked.length);
      used = count(prompt);
    }
    lap("render", t);

    if (refreshed.changed || extrasDirty) {
      try {
        if (refreshed.changed)
          saveIndex(state.cacheDir, state.index, toStoredGraph(tsconfig, state.imports.graph));
        else saveExtras(state.cacheDir, state.index);
      } catch (err) {
        // The cache is an optimisation: a read-only AIC_HOME must not fail the compile.
        state.loadNote = `index cache not saved: ${(err as Error).message}`;
      }
    }

    const guardFindings: Record<string, number> = {};
    const findingsByFile: Record<string, GuardFinding[]> = {};
    for (const item of items) {
      const f = guarded.get(item.path)?.findings ?? [];
      if (item.tier === "path" || f.length === 0) continue;
      findingsByFile[item.path] = f;
      for (const x of f) guardFindings[x.type] = (guardFindings[x.type] ?? 0) + 1;
    }

    const packedTokensRaw = items.reduce(
      (s, i) => s + (byPath.get(i.path)?.entry.estTokens ?? 0),
      0,
    );
    const tokensRaw = indexed.reduce((s, f) => s + f.entry.estTokens, 0);
    const durationMs = Math.round((deps.now() - t0) * 10) / 10;
    const trace: CompileTrace = {
      project: root,
      intent: {
        taskClass: intent.taskClass,
        terms: [...intent.terms.entries()]
          .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
          .slice(0, 40)
          .map(([term, w]) => ({ term, weight: round(w) })),
        identifiers: intent.identifiers.slice(0, 40),
        paths: intent.paths,
        frames: intent.frames,
        quoted: intent.quoted.slice(0, 10),
      },
      scan: {
        source: scan.source,
        files: scan.files.length,
        skipped: scan.skipped.length + nonText.length,
        skippedExamples: [
          ...scan.skipped,
          ...nonText.map((f) => ({ path: f.path, reason: f.entry.skip! })),
        ].slice(0, 50),
      },
      index: { ...refreshed.stats, cache: state.loadNote ?? "warm" },
      ranking: ranked.slice(0, 50).map((r) => ({
        path: r.path,
        score: round(r.score),
        parts: Object.fromEntries(Object.entries(r.parts).map(([k, v]) => [k, round(v)])),
      })),
      selection: items.map((i) => ({
        path: i.path,
        tier: i.tier,
        tokens: i.tokens,
        reason: i.reason,
      })),
      dropped: forbidden,
      guard: { findings: guardFindings, byFile: findingsByFile },
      funnel: { tokensRaw, tokensSelected: packedTokensRaw, tokensPacked: used },
      timingsMs: timings,
    };
    state.loadNote = undefined;

    return {
      ranking: ranked.map((r) => r.path),
      files: items.map((i) => ({
        path: i.path,
        tier: i.tier,
        tokens: i.tokens,
        ...(i.regions ? { regions: i.regions } : {}),
      })),
      prompt,
      tokens: { budget, used },
      trace,
      durationMs,
      meta: {
        taskClass: intent.taskClass,
        filesSelected: items.filter((i) => i.tier !== "path").length,
        filesTotal: scan.files.length,
        tokensRaw,
        tokensCompiled: used,
        budget,
        cacheHit: false,
        guardFindings,
      },
    };
  }

  return {
    compile,
    invalidate: (projectRoot: string) => void projects.delete(resolve(projectRoot)),
  };
}

/** The intent as shown in the prompt: whole, or cut at a line or word to `maxTokens`, marked. */
function fitIntent(intent: string, maxTokens: number, count: (text: string) => number): string {
  const total = count(intent);
  if (total <= maxTokens) return intent;
  const note = `\n[... intent truncated to fit the budget; ${total} tokens in all]`;
  const room = maxTokens - count(note);
  let lo = 0;
  let hi = intent.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (count(intent.slice(0, mid)) <= room) lo = mid;
    else hi = mid - 1;
  }
  const cut = intent.slice(0, lo);
  const boundary = Math.max(cut.lastIndexOf("\n"), cut.lastIndexOf(" "));
  return (boundary > lo * 0.8 ? cut.slice(0, boundary) : cut) + note;
}

/** A Map that forgets its oldest entries beyond a size: enough LRU for a per-project cache. */
class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly limit: number) {
    super();
  }
  override get(key: K): V | undefined {
    const v = super.get(key);
    if (v !== undefined) {
      super.delete(key);
      super.set(key, v);
    }
    return v;
  }
  override set(key: K, value: V): this {
    super.delete(key);
    super.set(key, value);
    if (this.size > this.limit) super.delete(this.keys().next().value as K);
    return this;
  }
}
