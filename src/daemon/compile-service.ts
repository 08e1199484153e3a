/**
 * What the daemon serves, on one compiler instance that keeps every project's index warm for the
 * daemon's lifetime and re-stats files before each answer, so edits are seen:
 *
 * - `compile` is exactly `aic_compile` (runCompilation: result cache, SQLite logging, reparent);
 *   the compiling hooks call it.
 * - `compileContext` is the bare compile(request) for the MCP server, which keeps its own result
 *   cache and logging but lets the daemon hold the warm index (forward-compile.ts).
 *
 * Requests are validated with the MCP tool's zod schemas, so the daemon accepts exactly what
 * `aic_compile` accepts; caller mistakes come back as `bad_request` with the reason.
 */
import { resolve } from "node:path";
import { z } from "zod";
import { createCompiler, CompileInputError } from "../compiler/index.js";
import { compileInputSchema, toolOutputSchema } from "../mcp/schemas.js";
import {
  AicInputError,
  runCompilation,
  type CompilationDeps,
} from "../service/compilation-service.js";
import { COMPILE_CONTEXT_METHOD } from "./forward-compile.js";
import type { DaemonService } from "./run-daemon.js";
import { BadRequestError, describeInvalid } from "./server.js";

export interface CompileServiceDeps {
  /** Overrides for runCompilation (tests: a private database, a fixed clock). */
  compilation?: Partial<CompilationDeps>;
  cacheRoot?: string;
  /**
   * Drop a project's warm index when it has not been compiled for this long (default: never), so
   * a long-lived daemon does not keep every project the user ever opened in memory.
   */
  evictAfterMs?: number;
  now?: () => number;
}

/** A CompileRequest (compiler/types.ts) as the MCP server forwards it. */
const compileRequestSchema = z
  .object({
    projectRoot: z.string().min(1).max(4096),
    intent: z.string().max(200_000),
    budget: z.number().int().positive().optional(),
    model: z.string().max(256).optional(),
    previousFiles: z.array(z.string().max(1024)).max(1000).optional(),
    toolOutputs: z.array(toolOutputSchema).max(50).optional(),
    guardAllowPatterns: z.array(z.string().max(1000)).max(200).optional(),
  })
  .strict();

interface ProjectStats {
  compiles: number;
  lastCompileAt: string;
  lastDurationMs: number;
}

interface WarmProject extends ProjectStats {
  lastUsedMs: number;
}

export function createCompileService(deps: CompileServiceDeps = {}): DaemonService {
  const compiler = createCompiler(deps.cacheRoot ? { cacheRoot: deps.cacheRoot } : {});
  const now = deps.now ?? Date.now;
  const projects = new Map<string, WarmProject>();

  function record(projectRoot: string, durationMs: number): void {
    const prev = projects.get(projectRoot);
    projects.set(projectRoot, {
      compiles: (prev?.compiles ?? 0) + 1,
      lastCompileAt: new Date(now()).toISOString(),
      lastDurationMs: durationMs,
      lastUsedMs: now(),
    });
  }

  function evictIdleProjects(): void {
    if (deps.evictAfterMs === undefined) return;
    for (const [root, p] of projects) {
      if (now() - p.lastUsedMs > deps.evictAfterMs && !queues.has(root)) {
        compiler.invalidate(root);
        projects.delete(root);
      }
    }
  }

  /**
   * One request per project at a time: a project's warm index is refreshed in place, so two
   * compiles of it must not interleave; and the second of two identical requests arriving
   * together is then answered from the result cache the first one filled.
   */
  const queues = new Map<string, Promise<unknown>>();
  function oneAtATime<T>(projectRoot: string, run: () => Promise<T>): Promise<T> {
    const key = resolve(projectRoot);
    const result = (queues.get(key) ?? Promise.resolve()).then(run, run);
    const tail = result.catch(() => undefined);
    queues.set(key, tail);
    void tail.then(() => queues.get(key) === tail && queues.delete(key));
    return result;
  }

  async function compile(params: unknown): Promise<unknown> {
    evictIdleProjects();
    const input = validate(compileInputSchema, params, "compile");
    const outcome = await oneAtATime(input.projectRoot, () =>
      asBadRequest(() =>
        runCompilation(input, {
          compile: (request) => compiler.compile(request),
          ...deps.compilation,
        }),
      ),
    );
    if (!outcome.reparented) record(outcome.meta.projectRoot, outcome.meta.durationMs);
    return outcome;
  }

  async function compileContext(params: unknown): Promise<unknown> {
    evictIdleProjects();
    const request = validate(compileRequestSchema, params, COMPILE_CONTEXT_METHOD);
    const context = await oneAtATime(request.projectRoot, () =>
      asBadRequest(() => compiler.compile(request)),
    );
    record(resolve(request.projectRoot), context.durationMs);
    return context;
  }

  return {
    handlers: { compile, [COMPILE_CONTEXT_METHOD]: compileContext },
    statusExtras: () => ({
      projects: Object.fromEntries(
        [...projects].map(([root, { lastUsedMs: _, ...stats }]) => [root, stats]),
      ),
    }),
  };
}

function validate<T>(schema: z.ZodType<T>, params: unknown, method: string): T {
  const parsed = schema.safeParse(params);
  if (parsed.success) return parsed.data;
  throw new BadRequestError(describeInvalid(`${method} params`, parsed.error));
}

/** Caller mistakes found by the service or compiler become `bad_request`, not a failure. */
async function asBadRequest<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof AicInputError || err instanceof CompileInputError) {
      throw new BadRequestError(err.message);
    }
    throw err;
  }
}
