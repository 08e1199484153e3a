/**
 * How a hook gets a compilation without starting a server per call (DESIGN "Known traps" 8):
 * it loads AIC's compilation service from the package and runs it in this process.
 *
 *   compileForHook(input)
 *     1. ask the resident daemon over its socket (src/daemon/client.ts). With no daemon it
 *        starts one and lets it answer (a hook waiting on a socket keeps its deadline; a cold
 *        in-process compile of a large project would block it); a daemon of another AIC build is
 *        replaced the same way. AIC_DAEMON=off skips this step;
 *     2. in-process, when no daemon comes up within 3 s or one dies mid-request: import
 *        `<aicPackageRoot>/dist/service/compilation-service.js` and call `runCompilation(input)`.
 *
 * Each step returns a HookCompileResult; nothing here throws, so hooks only choose an answer.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { buildId } from "../../daemon/build-id.js";
import { daemonStartCommand, viaDaemonOrInProcess } from "../../daemon/client.js";
import { aicPackageRootForHook } from "./aic-package-root.js";
import { isObject } from "./payload.js";

/** The aic_compile fields the hooks send (the MCP tool's names). */
export interface HookCompileInput {
  intent: string;
  projectRoot: string;
  editorId: "cursor";
  triggerSource: "session_start" | "subagent_start" | "subagent_stop";
  conversationId?: string;
  modelId?: string;
  reparentFromConversationId?: string;
}

export type HookCompileResult =
  | { kind: "compiled"; prompt: string; files: string[] }
  | { kind: "reparented"; rowsUpdated: number }
  | { kind: "failed"; reason: string };

export const SERVICE_MODULE = "dist/service/compilation-service.js";

type RunCompilation = (input: HookCompileInput) => Promise<unknown> | unknown;

/** How long a hook waits for the daemon's reply (inside the compiling hooks' 18 s deadline). */
export const DAEMON_REPLY_MS = 15_000;

export interface CompileDeps {
  packageRoot?: string;
  env?: NodeJS.ProcessEnv;
  /** Loads the service module; swapped in tests. */
  loadService?: (file: string) => Promise<{ runCompilation?: RunCompilation }>;
}

const defaultLoad = (file: string): Promise<{ runCompilation?: RunCompilation }> =>
  import(pathToFileURL(file).href) as Promise<{ runCompilation?: RunCompilation }>;

export async function compileForHook(
  input: HookCompileInput,
  deps: CompileDeps = {},
): Promise<HookCompileResult> {
  const env = deps.env ?? process.env;
  if (env.AIC_DAEMON === "off") return compileInProcess(input, deps);
  const packageRoot = deps.packageRoot ?? aicPackageRootForHook(env);
  try {
    const served = await viaDaemonOrInProcess(
      "compile",
      input,
      () => compileInProcess(input, { ...deps, packageRoot }),
      {
        env,
        build: buildId(packageRoot),
        start: daemonStartCommand(packageRoot),
        timeoutMs: DAEMON_REPLY_MS,
      },
    );
    return served.servedBy === "daemon" ? interpretServiceResult(served.value) : served.value;
  } catch (err) {
    return { kind: "failed", reason: (err as Error).message };
  }
}

export async function compileInProcess(
  input: HookCompileInput,
  deps: CompileDeps = {},
): Promise<HookCompileResult> {
  const file = join(deps.packageRoot ?? aicPackageRootForHook(), SERVICE_MODULE);
  let run: RunCompilation | undefined;
  try {
    run = (await (deps.loadService ?? defaultLoad)(file)).runCompilation;
  } catch (err) {
    return { kind: "failed", reason: `cannot load ${file}: ${(err as Error).message}` };
  }
  if (typeof run !== "function")
    return { kind: "failed", reason: `${file} does not export runCompilation()` };
  try {
    return interpretServiceResult(await run(input));
  } catch (err) {
    return { kind: "failed", reason: `runCompilation failed: ${(err as Error).message}` };
  }
}

/** The service answers a compile (prompt + files) or a reparent ({reparented, rowsUpdated}). */
export function interpretServiceResult(value: unknown): HookCompileResult {
  if (!isObject(value)) return { kind: "failed", reason: "the service returned no object" };
  if (value.reparented === true || typeof value.rowsUpdated === "number")
    return { kind: "reparented", rowsUpdated: Number(value.rowsUpdated ?? 0) };
  const prompt = [value.prompt, value.compiledPrompt].find((p) => typeof p === "string");
  if (typeof prompt !== "string" || prompt.trim() === "")
    return { kind: "failed", reason: "the service returned no compiled prompt" };
  return { kind: "compiled", prompt, files: topFilesOf(value) };
}

/** Paths a compile result reports as packed, best first, from whichever shape it uses. */
export function topFilesOf(value: Record<string, unknown>, limit = 5): string[] {
  // runCompilation nests the compiled context ({files, ranking}) under `context`.
  if (isObject(value.context) && !Array.isArray(value.files))
    return topFilesOf(value.context, limit);
  const files = Array.isArray(value.files)
    ? value.files.map((f) => (isObject(f) ? f.path : f))
    : Array.isArray(value.ranking)
      ? value.ranking
      : [];
  return files.filter((p): p is string => typeof p === "string" && p !== "").slice(0, limit);
}
