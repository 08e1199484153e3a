/** What every tool module receives: the store, the compilation deps and the bootstrap seam. */
import type { CompilationDeps } from "../service/compilation-service.js";
import { resolveProjectRoot } from "../service/project-root.js";
import type { Db } from "../store/index.js";
import type { EditorBootstrap } from "./editor-bootstrap.js";

export interface ToolContext {
  db: () => Db;
  compilation: Partial<CompilationDeps>;
  bootstrap: EditorBootstrap;
  homeDir?: string;
  log: (line: string) => void;
}

/** The deps runCompilation / inspectCompilation get from the server. */
export function compilationDeps(ctx: ToolContext): Partial<CompilationDeps> {
  return { db: ctx.db, ...ctx.compilation, ...(ctx.homeDir ? { homeDir: ctx.homeDir } : {}) };
}

/** An optional projectRoot that narrows a report: validated like any project root. */
export function optionalProjectRoot(ctx: ToolContext, raw: string | undefined): string | undefined {
  return raw === undefined ? undefined : resolveProjectRoot(raw, ctx.homeDir);
}
