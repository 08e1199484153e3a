/** The compiler's public API: one compile() for the CLI, the MCP server, the daemon and hooks. */
import type { CompiledContext, CompileRequest } from "./types.js";
import { createCompiler, type Compiler, type CompilerDeps } from "./compiler.js";

export * from "./types.js";
export {
  createCompiler,
  CompileInputError,
  DEFAULT_BUDGET,
  type Compiler,
  type CompilerOptions,
  type CompilerDeps,
} from "./compiler.js";

let defaultCompiler: Compiler | undefined;

/** Compiles with a module-level compiler (its warm indexes live as long as the process). */
export function compile(
  request: CompileRequest,
  deps?: Partial<CompilerDeps>,
): Promise<CompiledContext> {
  if (deps) return createCompiler({ deps }).compile(request);
  defaultCompiler ??= createCompiler();
  return defaultCompiler.compile(request);
}
