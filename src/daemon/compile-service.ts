/**
 * What the daemon serves: `compile` is exactly `aic_compile` (runCompilation: result cache,
 * SQLite logging, reparent), run against one compiler instance that keeps every project's index
 * warm for the daemon's lifetime and re-stats files before each answer, so edits are seen.
 *
 * Requests are validated with the same zod schema as the MCP tool, so the daemon accepts exactly
 * what `aic_compile` accepts; caller mistakes come back as `bad_request` with the reason.
 */
import { createCompiler, CompileInputError } from "../compiler/index.js";
import { compileInputSchema } from "../mcp/schemas.js";
import {
  AicInputError,
  runCompilation,
  type CompilationDeps,
} from "../service/compilation-service.js";
import type { DaemonService } from "./run-daemon.js";
import { BadRequestError } from "./server.js";

export interface CompileServiceDeps {
  /** Overrides for runCompilation (tests: a private database, a fixed clock). */
  compilation?: Partial<CompilationDeps>;
  cacheRoot?: string;
}

interface ProjectStats {
  compiles: number;
  lastCompileAt: string;
  lastDurationMs: number;
}

export function createCompileService(deps: CompileServiceDeps = {}): DaemonService {
  const compiler = createCompiler(deps.cacheRoot ? { cacheRoot: deps.cacheRoot } : {});
  const projects = new Map<string, ProjectStats>();

  async function compile(params: unknown): Promise<unknown> {
    const parsed = compileInputSchema.safeParse(params);
    if (!parsed.success) {
      const issues = parsed.error.issues.map(
        (i) => `${i.path.join(".") || "params"}: ${i.message}`,
      );
      throw new BadRequestError(`invalid compile params: ${issues.join("; ")}`);
    }
    try {
      const outcome = await runCompilation(parsed.data, {
        compile: (request) => compiler.compile(request),
        ...deps.compilation,
      });
      if (!outcome.reparented) {
        const prev = projects.get(outcome.meta.projectRoot);
        projects.set(outcome.meta.projectRoot, {
          compiles: (prev?.compiles ?? 0) + 1,
          lastCompileAt: new Date().toISOString(),
          lastDurationMs: outcome.meta.durationMs,
        });
      }
      return outcome;
    } catch (err) {
      if (err instanceof AicInputError || err instanceof CompileInputError) {
        throw new BadRequestError(err.message);
      }
      throw err;
    }
  }

  return {
    handlers: { compile },
    statusExtras: () => ({ projects: Object.fromEntries(projects) }),
  };
}
