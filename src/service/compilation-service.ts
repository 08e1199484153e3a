/**
 * The one orchestration behind every `aic_compile`: the MCP tool, the daemon and the in-process
 * hook path all call runCompilation(). It validates the request, resolves the intent, budget and
 * model, serves from the result cache or compiles, and records the compilation (SQLite row,
 * project, session, `.aic/last-compiled-prompt.txt`).
 *
 * Cheap to import: the compiler (tree-sitter, tokenizer) is loaded on the first compile only.
 *
 * What each aic_compile field does:
 * - intent (required): what to compile for; a weak one falls back to the conversation's last
 *   real intent (see intent.ts).
 * - projectRoot (required): absolute existing folder; `/` and the home folder are refused.
 * - editorId, triggerSource: recorded on the row; shown by status (per editor / per trigger).
 * - conversationId: recorded; keys the weak-intent fallback, the session-model lookup and
 *   aic_chat_summary.
 * - modelId: recorded and part of the cache key; defaults to the conversation's model from
 *   `.aic/session-models.jsonl`, then aic.config.json `model`.
 * - reparentFromConversationId with triggerSource "subagent_stop": moves that conversation's
 *   rows to conversationId instead of compiling.
 * - stepIndex: recorded (chat summaries list steps in order).
 * - stepIntent: appended to the intent to refine ranking toward the current step; recorded.
 * - previousFiles, toolOutputs: passed to the compiler (they boost files); part of the cache key.
 * - conversationTokens: recorded; shrinks the budget as the conversation fills (budget.ts).
 * - budget: the token budget; default aic.config.json `budget` (8000).
 */
import { readJsonl } from "../shared/jsonl.js";
import {
  LAST_COMPILED_PROMPT,
  projectFile,
  SESSION_MODELS_LOG,
  writeLastCompiledPrompt,
} from "../shared/project-logs.js";
import { loadProjectConfig, type LoadedConfig } from "../config/project-config.js";
import type { CompileRequest, CompiledContext, ToolOutput } from "../compiler/types.js";
import {
  getCachedContext,
  getSession,
  insertCompilation,
  putCachedContext,
  touchCachedContext,
  reparentConversation,
  sharedDatabase,
  touchSession,
  upsertProject,
  writeTransaction,
  type CompilationRecord,
  type Db,
  type TopFile,
} from "../store/index.js";
import { effectiveBudget } from "./budget.js";
import { compileCacheKey, projectFingerprint } from "./cache-key.js";
import { AicInputError } from "./errors.js";
import { resolveIntent, type IntentSource } from "./intent.js";
import { normaliseProjectPaths } from "./project-paths.js";
import { resolveProjectRoot } from "./project-root.js";
import { reduction } from "./reduction.js";

export { AicInputError } from "./errors.js";
export { isWeakIntent } from "./intent.js";

/** The aic_compile contract (DESIGN.md), already shape-checked by the caller's schema. */
export interface AicCompileInput {
  intent: string;
  projectRoot: string;
  editorId?: string;
  triggerSource?: string;
  conversationId?: string;
  modelId?: string;
  reparentFromConversationId?: string;
  stepIndex?: number;
  stepIntent?: string;
  previousFiles?: string[];
  toolOutputs?: ToolOutput[];
  conversationTokens?: number;
  budget?: number;
}

export const SUBAGENT_STOP = "subagent_stop";

export interface CompileSummary {
  projectRoot: string;
  conversationId: string | null;
  /** The intent actually compiled, and where it came from. */
  intent: string;
  intentSource: IntentSource;
  taskClass: string;
  filesSelected: number;
  filesTotal: number;
  tokensRaw: number;
  tokensCompiled: number;
  budget: number;
  /** 1 - compiled/raw: the share of the candidate tokens that was left out. */
  reduction: number;
  cacheHit: boolean;
  durationMs: number;
  guardFindings: Record<string, number>;
  modelId: string | null;
  editorId: string | null;
  triggerSource: string | null;
  stepIndex: number | null;
  lastPromptFile: string;
  /** Config warnings and anything that went wrong while recording (the context is still valid). */
  warnings: string[];
}

export interface CompiledOutcome {
  reparented: false;
  prompt: string;
  context: CompiledContext;
  meta: CompileSummary;
  /** compilation_log row id, absent when recording failed (see meta.warnings). */
  logId?: number;
}

export interface ReparentOutcome {
  reparented: true;
  rowsUpdated: number;
  conversationId: string;
  fromConversationId: string;
}

export type CompilationOutcome = CompiledOutcome | ReparentOutcome;

export interface CompilationDeps {
  compile: (request: CompileRequest) => Promise<CompiledContext>;
  db: () => Db;
  fingerprint: (projectRoot: string) => string;
  loadConfig: (projectRoot: string) => LoadedConfig;
  homeDir?: string;
  now: () => number;
}

/**
 * The compiler's module-level instance, loaded on first use: every caller in this process shares
 * its warm indexes, and importing this service stays cheap.
 */
async function compileInProcess(request: CompileRequest): Promise<CompiledContext> {
  const compiler = await import("../compiler/index.js");
  return compiler.compile(request);
}

export const defaultDeps: CompilationDeps = {
  compile: compileInProcess,
  db: () => sharedDatabase(),
  fingerprint: projectFingerprint,
  loadConfig: loadProjectConfig,
  now: () => Date.now(),
};

function optionalText(value: string | undefined): string | null {
  const t = value?.trim();
  return t ? t : null;
}

/** The model the conversation last reported (hooks append it to `.aic/session-models.jsonl`). */
export function sessionModel(projectRoot: string, conversationId: string): string | undefined {
  const records = readJsonl<{ conversationId?: unknown; model?: unknown }>(
    projectFile(projectRoot, SESSION_MODELS_LOG),
  );
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i];
    if (r?.conversationId === conversationId && typeof r.model === "string" && r.model.trim())
      return r.model.trim();
  }
  return undefined;
}

export interface PreparedRequest {
  projectRoot: string;
  request: CompileRequest;
  intentSource: IntentSource;
  realIntent: string | null;
  config: LoadedConfig;
  /** Config warnings and inputs that were ignored, for meta.warnings. */
  warnings: string[];
}

/** Validation and resolution shared by runCompilation and inspectCompilation. */
export function prepareRequest(
  input: AicCompileInput,
  deps: Pick<CompilationDeps, "db" | "loadConfig" | "homeDir">,
): PreparedRequest {
  const projectRoot = resolveProjectRoot(input.projectRoot, deps.homeDir);
  if (typeof input.intent !== "string") throw new AicInputError("intent must be a string");
  // In-process callers (hooks) skip the MCP schema, so the numbers are checked here too.
  const wholeNumber = (name: string, value: number | undefined, min: number) => {
    if (value !== undefined && !(Number.isInteger(value) && value >= min)) {
      throw new AicInputError(`${name} must be a whole number ≥ ${min}, got ${value}`);
    }
  };
  wholeNumber("budget", input.budget, 1);
  wholeNumber("conversationTokens", input.conversationTokens, 0);
  wholeNumber("stepIndex", input.stepIndex, 0);
  const config = deps.loadConfig(projectRoot);
  const conversationId = optionalText(input.conversationId);
  const warnings = [...config.warnings];
  let lastRealIntent: string | null | undefined;
  try {
    lastRealIntent = conversationId ? getSession(deps.db(), conversationId)?.lastIntent : undefined;
  } catch (err) {
    // A broken database must not keep the agent from its context; say what is missing.
    warnings.push(`conversation history unavailable: ${(err as Error).message}`);
  }
  const resolved = resolveIntent({
    given: input.intent,
    stepIntent: input.stepIntent,
    lastRealIntent,
  });
  const model =
    optionalText(input.modelId) ??
    (conversationId ? sessionModel(projectRoot, conversationId) : undefined) ??
    config.config.model;
  // Paths may be written against the root as given or as resolved (a symlinked checkout).
  const roots = [input.projectRoot.trim(), projectRoot];
  const previous = normaliseProjectPaths(input.previousFiles ?? [], roots);
  const outside = [...previous.outside];
  const toolOutputs = (input.toolOutputs ?? []).map((t) => {
    if (!t.relatedFiles) return t;
    const related = normaliseProjectPaths(t.relatedFiles, roots);
    outside.push(...related.outside);
    return { ...t, relatedFiles: related.paths };
  });
  if (outside.length) {
    warnings.push(
      `ignored ${outside.length} file path(s) outside the project: ${outside.slice(0, 3).join(", ")}`,
    );
  }
  const request: CompileRequest = {
    projectRoot,
    intent: resolved.intent,
    budget: effectiveBudget(input.budget ?? config.config.budget, input.conversationTokens),
    ...(model ? { model } : {}),
    ...(previous.paths.length ? { previousFiles: previous.paths } : {}),
    ...(toolOutputs.length ? { toolOutputs } : {}),
    ...(config.config.guardAllowPatterns.length
      ? { guardAllowPatterns: config.config.guardAllowPatterns }
      : {}),
  };
  return {
    projectRoot,
    request,
    intentSource: resolved.source,
    realIntent: resolved.realIntent,
    config,
    warnings,
  };
}

function reparent(input: AicCompileInput, db: Db): ReparentOutcome {
  const parent = optionalText(input.conversationId);
  const child = optionalText(input.reparentFromConversationId);
  if (!parent || !child) {
    throw new AicInputError(
      `triggerSource "${SUBAGENT_STOP}" needs both conversationId (the parent) and ` +
        "reparentFromConversationId (the subagent's conversation)",
    );
  }
  return {
    reparented: true,
    rowsUpdated: reparentConversation(db, child, parent),
    conversationId: parent,
    fromConversationId: child,
  };
}

function topFiles(context: CompiledContext, limit = 10): TopFile[] {
  return context.files
    .slice(0, limit)
    .map((f) => ({ path: f.path, tier: f.tier, tokens: f.tokens }));
}

/** One transaction: the project, the log row, the session, and the cache entry (new or touched). */
function recordCompilation(
  db: Db,
  projectRoot: string,
  row: Omit<CompilationRecord, "projectId">,
  session: { conversationId: string | null; realIntent: string | null },
  cache: { key: string; hit: boolean; context: CompiledContext },
): number {
  return writeTransaction(db, () => {
    const projectId = upsertProject(db, projectRoot, row.createdMs);
    const id = insertCompilation(db, { ...row, projectId });
    if (session.conversationId) {
      touchSession(db, {
        conversationId: session.conversationId,
        projectId,
        editorId: row.editorId,
        modelId: row.modelId,
        realIntent: session.realIntent,
        nowMs: row.createdMs,
      });
    }
    if (cache.hit) touchCachedContext(db, cache.key, row.createdMs);
    else putCachedContext(db, cache.key, projectId, JSON.stringify(cache.context), row.createdMs);
    return id;
  });
}

export async function runCompilation(
  input: AicCompileInput,
  overrides: Partial<CompilationDeps> = {},
): Promise<CompilationOutcome> {
  const deps: CompilationDeps = { ...defaultDeps, ...overrides };
  const started = performance.now();
  const triggerSource = optionalText(input.triggerSource);
  if (triggerSource === SUBAGENT_STOP || input.reparentFromConversationId !== undefined) {
    if (triggerSource !== SUBAGENT_STOP) {
      throw new AicInputError(
        `reparentFromConversationId is only accepted with triggerSource "${SUBAGENT_STOP}"`,
      );
    }
    // A reparent still names a real project: validate it like any other call.
    resolveProjectRoot(input.projectRoot, deps.homeDir);
    return reparent(input, deps.db());
  }

  const prepared = prepareRequest(input, deps);
  const { projectRoot, request } = prepared;
  const warnings = [...prepared.warnings];

  // The cache and the log need the database; a broken one costs them, never the context.
  const key = compileCacheKey(request, deps.fingerprint(projectRoot));
  let db: Db | undefined;
  let cached: CompiledContext | undefined;
  try {
    db = deps.db();
    const text = getCachedContext(db, key);
    cached = text === undefined ? undefined : parseCachedContext(text);
  } catch (err) {
    db = undefined;
    warnings.push(
      `the AIC database is unavailable, so this compilation is neither cached nor recorded: ${(err as Error).message}`,
    );
  }
  const cacheHit = cached !== undefined;
  const context: CompiledContext = cached
    ? { ...cached, meta: { ...cached.meta, cacheHit: true } }
    : await deps.compile(request);
  const durationMs = Math.round((performance.now() - started) * 10) / 10;

  const conversationId = optionalText(input.conversationId);
  const editorId = optionalText(input.editorId);
  const meta: CompileSummary = {
    projectRoot,
    conversationId,
    intent: request.intent,
    intentSource: prepared.intentSource,
    taskClass: context.meta.taskClass,
    filesSelected: context.meta.filesSelected,
    filesTotal: context.meta.filesTotal,
    tokensRaw: context.meta.tokensRaw,
    tokensCompiled: context.meta.tokensCompiled,
    budget: request.budget ?? context.meta.budget,
    reduction: reduction(context.meta.tokensRaw, context.meta.tokensCompiled),
    cacheHit,
    durationMs,
    guardFindings: context.meta.guardFindings,
    modelId: request.model ?? null,
    editorId,
    triggerSource,
    stepIndex: input.stepIndex ?? null,
    lastPromptFile: projectFile(projectRoot, LAST_COMPILED_PROMPT),
    warnings,
  };

  try {
    writeLastCompiledPrompt(projectRoot, context.prompt);
  } catch (err) {
    warnings.push(`${meta.lastPromptFile} was not written: ${(err as Error).message}`);
  }

  let logId: number | undefined;
  if (db) {
    try {
      logId = recordCompilation(
        db,
        projectRoot,
        {
          createdMs: deps.now(),
          conversationId,
          editorId,
          modelId: meta.modelId,
          triggerSource,
          intent: request.intent,
          intentGiven: request.intent === input.intent ? null : input.intent,
          intentSource: prepared.intentSource,
          stepIndex: meta.stepIndex,
          stepIntent: optionalText(input.stepIntent),
          conversationTokens: input.conversationTokens ?? null,
          taskClass: meta.taskClass,
          filesSelected: meta.filesSelected,
          filesTotal: meta.filesTotal,
          tokensRaw: meta.tokensRaw,
          tokensCompiled: meta.tokensCompiled,
          tokenBudget: meta.budget,
          cacheHit,
          durationMs,
          guardCounts: meta.guardFindings,
          topFiles: topFiles(context),
        },
        { conversationId, realIntent: prepared.realIntent },
        { key, hit: cacheHit, context },
      );
    } catch (err) {
      // The context is valid even if recording failed; say so instead of failing the compile.
      warnings.push(`this compilation was not recorded: ${(err as Error).message}`);
    }
  }

  return {
    reparented: false,
    prompt: context.prompt,
    context,
    meta,
    ...(logId !== undefined ? { logId } : {}),
  };
}

/** A damaged cache entry reads as a miss: it is recompiled and overwritten. */
function parseCachedContext(text: string): CompiledContext | undefined {
  try {
    return JSON.parse(text) as CompiledContext;
  } catch {
    return undefined;
  }
}

export interface InspectOutcome {
  projectRoot: string;
  intent: string;
  intentSource: IntentSource;
  budget: number;
  warnings: string[];
  context: CompiledContext;
}

/** Compile for inspection: the full selection trace, nothing cached, logged or written. */
export async function inspectCompilation(
  input: Pick<
    AicCompileInput,
    "intent" | "projectRoot" | "budget" | "modelId" | "previousFiles" | "toolOutputs" | "stepIntent"
  >,
  overrides: Partial<CompilationDeps> = {},
): Promise<InspectOutcome> {
  const deps: CompilationDeps = { ...defaultDeps, ...overrides };
  const prepared = prepareRequest(input, deps);
  const context = await deps.compile(prepared.request);
  return {
    projectRoot: prepared.projectRoot,
    intent: prepared.request.intent,
    intentSource: prepared.intentSource,
    budget: prepared.request.budget ?? context.meta.budget,
    warnings: prepared.warnings,
    context,
  };
}
