/**
 * The compiler's contract. One compile() serves the CLI, the MCP server, the daemon and the hooks;
 * nothing here knows which editor called it.
 */

export type Tier = "full" | "regions" | "outline" | "path";
export type TaskClass = "bugfix" | "feature" | "refactor" | "docs" | "test" | "general";

export interface ToolOutput {
  type: string;
  content: string;
  /** Project-relative paths; they boost those files and are part of the cache key. */
  relatedFiles?: string[];
}

export interface CompileRequest {
  /** Absolute path of the project root. */
  projectRoot: string;
  intent: string;
  /** Token budget for the whole prompt; default 8000. */
  budget?: number;
  /** Model id: selects nothing today but is part of the cache key. */
  model?: string;
  /** Files the agent already has in view (boosted a little). */
  previousFiles?: string[];
  toolOutputs?: ToolOutput[];
  /** Regexes whose matches the guard never redacts (from aic.config.json). */
  guardAllowPatterns?: string[];
}

export interface Region {
  /** 1-based inclusive line range. */
  startLine: number;
  endLine: number;
  /** The symbol the region belongs to, e.g. "Session.request". */
  symbol?: string;
}

export interface PackedFile {
  path: string;
  tier: Tier;
  tokens: number;
  regions?: Region[];
}

export interface CompiledContext {
  /** Every candidate, best first (at least the top 50 when there are that many). */
  ranking: string[];
  /** What the prompt contains, in prompt order. */
  files: PackedFile[];
  prompt: string;
  tokens: { budget: number; used: number };
  /** Why each file was picked or dropped, the token funnel, guard findings, timings. */
  trace: CompileTrace;
  durationMs: number;
  meta: CompileMeta;
}

export interface CompileMeta {
  taskClass: TaskClass;
  filesSelected: number;
  filesTotal: number;
  tokensRaw: number;
  tokensCompiled: number;
  budget: number;
  cacheHit: boolean;
  /** Guard findings counted by type, e.g. {"aws-access-key": 1, "prompt-injection": 2}. */
  guardFindings: Record<string, number>;
}

/** Free-form but documented by the compiler; tests and `aic inspect` read it. */
export type CompileTrace = Record<string, unknown>;
