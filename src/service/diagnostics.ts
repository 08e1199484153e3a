/**
 * Read-only reports over the store, shared by the MCP tools and the CLI so both say the same
 * thing: status over a time window, the last compilation, one conversation's summary, projects.
 * "reduction" is 1 - compiled/raw tokens: how much of the candidate code was left out.
 */
import { existsSync, readFileSync } from "node:fs";
import { LAST_COMPILED_PROMPT, projectFile } from "../shared/project-logs.js";
import {
  findProject,
  lastCompilation,
  listCompilations,
  listProjects,
  type CompilationRow,
  type Db,
  type LogFilter,
} from "../store/index.js";
import { AicInputError } from "./errors.js";
import { reduction } from "./reduction.js";

export const DEFAULT_STATUS_DAYS = 7;

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

function countBy(rows: CompilationRow[], pick: (r: CompilationRow) => string | null) {
  const out: Record<string, number> = {};
  for (const r of rows) {
    const k = pick(r) ?? "unknown";
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

function sumGuards(rows: CompilationRow[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of rows)
    for (const [type, n] of Object.entries(r.guardCounts)) out[type] = (out[type] ?? 0) + n;
  return out;
}

interface Totals {
  compilations: number;
  cacheHits: number;
  cacheHitRate: number;
  tokensRaw: number;
  tokensCompiled: number;
  reduction: number;
  medianDurationMs: number | null;
  guardFindings: Record<string, number>;
}

function totals(rows: CompilationRow[]): Totals {
  const tokensRaw = rows.reduce((a, r) => a + r.tokensRaw, 0);
  const tokensCompiled = rows.reduce((a, r) => a + r.tokensCompiled, 0);
  const cacheHits = rows.filter((r) => r.cacheHit).length;
  return {
    compilations: rows.length,
    cacheHits,
    cacheHitRate: rows.length ? cacheHits / rows.length : 0,
    tokensRaw,
    tokensCompiled,
    reduction: reduction(tokensRaw, tokensCompiled),
    medianDurationMs: median(rows.map((r) => r.durationMs)),
    guardFindings: sumGuards(rows),
  };
}

/** Resolve an optional project filter; an unknown project is an empty report, not an error. */
function projectFilter(db: Db, projectRoot: string | undefined): LogFilter | null {
  if (projectRoot === undefined) return {};
  const p = findProject(db, projectRoot);
  return p ? { projectId: p.id } : null;
}

export interface StatusReport extends Totals {
  days: number;
  sinceMs: number;
  projectRoot: string | null;
  projects: number;
  conversations: number;
  byProject: Record<string, number>;
  byTrigger: Record<string, number>;
  byEditor: Record<string, number>;
  byTaskClass: Record<string, number>;
  lastCompilationMs: number | null;
}

export function statusReport(
  db: Db,
  options: { days?: number; projectRoot?: string; nowMs?: number } = {},
): StatusReport {
  const days = options.days ?? DEFAULT_STATUS_DAYS;
  if (!(days > 0) || !Number.isFinite(days)) {
    throw new AicInputError(`days must be a positive number, got ${days}`);
  }
  const sinceMs = (options.nowMs ?? Date.now()) - days * 86_400_000;
  const filter = projectFilter(db, options.projectRoot);
  const rows = filter ? listCompilations(db, { ...filter, sinceMs }) : [];
  return {
    days,
    sinceMs,
    projectRoot: options.projectRoot ?? null,
    ...totals(rows),
    projects: new Set(rows.map((r) => r.projectId)).size,
    conversations: new Set(rows.map((r) => r.conversationId).filter(Boolean)).size,
    byProject: countBy(rows, (r) => r.projectRoot),
    byTrigger: countBy(rows, (r) => r.triggerSource),
    byEditor: countBy(rows, (r) => r.editorId),
    byTaskClass: countBy(rows, (r) => r.taskClass),
    lastCompilationMs: rows.at(-1)?.createdMs ?? null,
  };
}

export interface LastReport {
  compilation: CompilationRow & { reduction: number };
  /** The prompt as last written to `.aic/last-compiled-prompt.txt` of that project. */
  promptFile: string;
  prompt: string | null;
}

export function lastReport(db: Db, options: { projectRoot?: string } = {}): LastReport | null {
  const filter = projectFilter(db, options.projectRoot);
  const row = filter ? lastCompilation(db, filter) : undefined;
  if (!row) return null;
  const promptFile = projectFile(row.projectRoot, LAST_COMPILED_PROMPT);
  let prompt: string | null = null;
  try {
    prompt = existsSync(promptFile) ? readFileSync(promptFile, "utf8") : null;
  } catch {
    prompt = null;
  }
  return {
    compilation: { ...row, reduction: reduction(row.tokensRaw, row.tokensCompiled) },
    promptFile,
    prompt,
  };
}

export interface ChatSummary extends Totals {
  conversationId: string;
  projectRoots: string[];
  firstMs: number | null;
  lastMs: number | null;
  /** Conversations whose rows were moved here (subagents). */
  reparentedFrom: string[];
  models: string[];
  steps: {
    time: number;
    intent: string;
    stepIndex: number | null;
    triggerSource: string | null;
    filesSelected: number;
    tokensCompiled: number;
    cacheHit: boolean;
  }[];
  topFiles: { path: string; compilations: number }[];
}

export function chatSummary(
  db: Db,
  options: { conversationId: string; projectRoot?: string },
): ChatSummary {
  const conversationId = options.conversationId.trim();
  if (!conversationId) throw new AicInputError("conversationId must not be empty");
  const filter = projectFilter(db, options.projectRoot);
  const rows = filter ? listCompilations(db, { ...filter, conversationId }) : [];
  const fileCounts = new Map<string, number>();
  for (const r of rows)
    for (const f of r.topFiles) fileCounts.set(f.path, (fileCounts.get(f.path) ?? 0) + 1);
  return {
    conversationId,
    ...totals(rows),
    projectRoots: [...new Set(rows.map((r) => r.projectRoot))],
    firstMs: rows[0]?.createdMs ?? null,
    lastMs: rows.at(-1)?.createdMs ?? null,
    reparentedFrom: [...new Set(rows.map((r) => r.reparentedFrom).filter((x): x is string => !!x))],
    models: [...new Set(rows.map((r) => r.modelId).filter((x): x is string => !!x))],
    steps: rows.map((r) => ({
      time: r.createdMs,
      intent: r.intent,
      stepIndex: r.stepIndex,
      triggerSource: r.triggerSource,
      filesSelected: r.filesSelected,
      tokensCompiled: r.tokensCompiled,
      cacheHit: r.cacheHit,
    })),
    topFiles: [...fileCounts.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, 10)
      .map(([path, compilations]) => ({ path, compilations })),
  };
}

export interface ProjectSummary {
  root: string;
  name: string;
  exists: boolean;
  compilations: number;
  firstSeenMs: number;
  lastSeenMs: number;
  lastCompilationMs: number | null;
}

export function projectsReport(db: Db): ProjectSummary[] {
  const counts = new Map(
    (
      db
        .prepare(
          "SELECT project_id AS id, COUNT(*) AS n, MAX(created_ms) AS last FROM compilation_log GROUP BY project_id",
        )
        .all() as { id: number; n: number; last: number }[]
    ).map((r) => [r.id, r]),
  );
  return listProjects(db).map((p) => ({
    root: p.root,
    name: p.name,
    exists: existsSync(p.root),
    compilations: counts.get(p.id)?.n ?? 0,
    firstSeenMs: p.firstSeenMs,
    lastSeenMs: p.lastSeenMs,
    lastCompilationMs: counts.get(p.id)?.last ?? null,
  }));
}
