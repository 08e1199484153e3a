/**
 * The MCP server's compile(): one warm index per project per user.
 *
 * When a daemon of this build is running, the compile runs there (the daemon holds the warm
 * index; the MCP server still does its own result cache and logging via runCompilation). With no
 * daemon, or one of another build, the server compiles in-process; it never starts or replaces a
 * daemon itself, because the hooks own that (they start one at the first sessionStart). As soon
 * as the daemon serves a project, the server drops its own index of it, so two warm indexes of
 * one project never stay in memory.
 */
import type { Compiler } from "../compiler/index.js";
import type { CompiledContext, CompileRequest } from "../compiler/types.js";
import { buildId } from "./build-id.js";
import { callDaemon, type DaemonClientOptions, type DaemonCallResult } from "./client.js";
import { aicPackageRoot } from "../install/package-info.js";

export const COMPILE_CONTEXT_METHOD = "compileContext";

export interface ForwardDeps {
  env: NodeJS.ProcessEnv;
  build: string;
  call: (method: string, params: unknown, opts: DaemonClientOptions) => Promise<DaemonCallResult>;
  /** The in-process compiler, created on first need. */
  createLocal: () => Promise<Compiler>;
  /** A daemon compiling a huge project cold may take a while; past this the call fails. */
  timeoutMs: number;
}

const defaultForwardDeps = (): ForwardDeps => ({
  env: process.env,
  build: buildId(aicPackageRoot()),
  call: callDaemon,
  createLocal: async () => (await import("../compiler/index.js")).createCompiler(),
  timeoutMs: 120_000,
});

export function createForwardingCompile(
  overrides: Partial<ForwardDeps> = {},
): (request: CompileRequest) => Promise<CompiledContext> {
  const deps = { ...defaultForwardDeps(), ...overrides };
  let local: Compiler | undefined;
  return async (request) => {
    if (deps.env.AIC_DAEMON !== "off") {
      const res = await deps.call(COMPILE_CONTEXT_METHOD, request, {
        env: deps.env,
        build: deps.build,
        timeoutMs: deps.timeoutMs,
      });
      if (res.status === "ok") {
        local?.invalidate(request.projectRoot);
        return res.result as CompiledContext;
      }
      if (res.status === "timeout") throw new Error(`AIC daemon: ${res.reason}`);
      // Anything else (no daemon, another build, a request error): compile here. A request the
      // daemon refused fails here the same way, with the compiler's own typed error.
    }
    local ??= await deps.createLocal();
    return local.compile(request);
  };
}
