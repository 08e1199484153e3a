/**
 * The one lifecycle every AIC hook goes through, so each hook file only says what it does:
 *
 *   bounded stdin → JSON object → Cursor's payload? → project root, ids → handle → one JSON answer
 *
 * Whatever happens, the hook exits 0 with the answer its event allows. Unreadable input and
 * internal errors get the hook's fallback answer (the neutral one, except for the compile gate)
 * and one line in the health log. Payloads that are not Cursor's (no `cursor_version` and no
 * fresh Cursor marker for the conversation, e.g. Claude Code's) are ignored: no output, no side
 * effects.
 */
import { writeSync } from "node:fs";
import {
  ConfigError,
  DEFAULT_CONFIG,
  loadProjectConfig,
  type ProjectConfig,
} from "../../config/project-config.js";
import { recordHookError } from "./health.js";
import { conversationStateDir, hasFreshCursorMarker, touchCursorMarker } from "./hook-state.js";
import { resolveConversationId, resolveGenerationId } from "./ids.js";
import { cursorVersion, parsePayload, type Payload } from "./payload.js";
import { isUsableProjectRoot, resolveProjectRoot } from "./project-root.js";
import { pendingRead, readBoundedStdin, type StdinOptions } from "./stdin.js";

export type HookOutput = Record<string, unknown>;

export interface HookContext {
  hook: string;
  payload: Payload;
  projectRoot: string;
  conversationId?: string;
  generationId?: string;
  /** This conversation's private state folder (may not exist yet). */
  convDir: string;
  env: NodeJS.ProcessEnv;
  argv: string[];
  /** aic.config.json, or the defaults when it is missing or invalid (then one health line). */
  config(): ProjectConfig;
  /** One health-log line for an error the hook handles and swallows. */
  reportError(stage: string, err: unknown): void;
  /** Run a side effect that must not stop the hook: a failure becomes one health-log line. */
  attempt<T>(stage: string, fn: () => T): T | undefined;
}

export interface HookSpec {
  name: string;
  /** The answer when there is nothing to say; `null` means no stdout (sessionEnd). */
  neutral: HookOutput | null;
  /** The answer for unreadable input or an internal error, when it is not the neutral one. */
  fallback?: (reason: string, projectRoot: string) => HookOutput | null;
  /** Accept a payload without Cursor's marks (pre-compact's explicit synthetic mode). */
  acceptForeign?: (argv: string[]) => boolean;
  /** Answer `neutral` and exit if handling takes longer (compiling hooks, under Cursor's 20 s). */
  deadlineMs?: number;
  handle(ctx: HookContext): Promise<HookOutput | null> | HookOutput | null;
}

export interface RunDeps {
  env?: NodeJS.ProcessEnv;
  argv?: string[];
  cwd?: string;
  stdin?: StdinOptions;
}

function loadConfig(ctx: Pick<HookContext, "projectRoot" | "reportError">): () => ProjectConfig {
  let cached: ProjectConfig | undefined;
  return () => {
    if (cached) return cached;
    try {
      cached = loadProjectConfig(ctx.projectRoot).config;
    } catch (err) {
      ctx.reportError(err instanceof ConfigError ? "read aic.config.json" : "load config", err);
      cached = { ...DEFAULT_CONFIG, guardAllowPatterns: [] };
    }
    return cached;
  };
}

/** $AIC_HOOK_DEADLINE_MS can only shorten a hook's deadline (tests, slow CI), never extend it. */
function deadlineMs(spec: HookSpec, env: NodeJS.ProcessEnv): number | undefined {
  if (spec.deadlineMs === undefined) return undefined;
  const override = Number(env.AIC_HOOK_DEADLINE_MS);
  return override > 0 ? Math.min(override, spec.deadlineMs) : spec.deadlineMs;
}

let answered = false;
/** Print the answer once, then exit 0. */
function answer(out: HookOutput | null): void {
  if (answered) return;
  answered = true;
  if (out !== null) writeStdout(JSON.stringify(out));
  exit();
}

/**
 * Write straight to fd 1: `process.stdout` would load the stream modules just to print one line.
 * A closed stdout (EPIPE) means nobody waits for the answer any more.
 */
function writeStdout(text: string): void {
  const buf = Buffer.from(text, "utf8");
  for (let off = 0; off < buf.length;) {
    try {
      off += writeSync(1, buf, off);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EAGAIN") return;
    }
  }
}

function exit(): void {
  // A writer that never closed stdin leaves a read blocked in a libuv worker, and a normal exit
  // waits for that read forever. The answer is already written, so end the process outright.
  if (pendingRead()) process.kill(process.pid, "SIGKILL");
  process.exit(0);
}

export async function runHook(spec: HookSpec, deps: RunDeps = {}): Promise<void> {
  const env = deps.env ?? process.env;
  const argv = deps.argv ?? process.argv.slice(2);
  const report = (stage: string, err: unknown, extra: { projectRoot?: string } = {}): void =>
    recordHookError({ hook: spec.name, stage, error: err, ...extra }, env);
  const fallback = (reason: string, root: string): HookOutput | null =>
    spec.fallback ? spec.fallback(reason, root) : spec.neutral;

  let projectRoot = resolveProjectRoot(undefined, env, deps.cwd);
  // Whatever escapes (a throwing timer callback, a rejected promise nobody awaited) still ends
  // in one health line and the hook's fallback answer, never a stack trace and exit code 1.
  const onEscape = (err: unknown): void => {
    report("uncaught", err, { projectRoot });
    answer(fallback(err instanceof Error ? err.message : String(err), projectRoot));
  };
  process.on("uncaughtException", onEscape);
  process.on("unhandledRejection", onEscape);
  try {
    const input = await readBoundedStdin(deps.stdin);
    if (input.kind === "too-large") {
      const reason = `stdin exceeded ${input.bytes} bytes (the limit keeps hooks from exhausting memory)`;
      report("read stdin", reason, { projectRoot });
      return answer(fallback(reason, projectRoot));
    }
    const parsed = parsePayload(input.text);
    if ("error" in parsed) {
      const reason = input.kind === "timeout" ? `stdin stayed open; ${parsed.error}` : parsed.error;
      report("read stdin", reason, { projectRoot });
      return answer(fallback(reason, projectRoot));
    }
    const payload = parsed.payload;
    projectRoot = resolveProjectRoot(payload, env, deps.cwd);
    const conversationId = resolveConversationId(payload, env);
    const convDir = conversationStateDir(projectRoot, conversationId, env);

    const native = cursorVersion(payload) !== undefined;
    if (!native && !(conversationId && hasFreshCursorMarker(convDir))) {
      if (!spec.acceptForeign?.(argv)) return answer(null);
    }

    // No project folder (a bare window, cwd at home): nothing to guard or record.
    if (!isUsableProjectRoot(projectRoot, env.HOME || undefined)) return answer(spec.neutral);

    const ctx: HookContext = {
      hook: spec.name,
      payload,
      projectRoot,
      conversationId,
      generationId: resolveGenerationId(payload),
      convDir,
      env,
      argv,
      config: () => DEFAULT_CONFIG,
      reportError: (stage, err) =>
        recordHookError({ hook: spec.name, stage, error: err, projectRoot, conversationId }, env),
      attempt(stage, fn) {
        try {
          return fn();
        } catch (err) {
          this.reportError(stage, err);
          return undefined;
        }
      },
    };
    ctx.config = loadConfig(ctx);
    if (native && conversationId)
      ctx.attempt("write cursor marker", () => touchCursorMarker(convDir));
    const deadline = deadlineMs(spec, env);
    if (deadline !== undefined) {
      setTimeout(() => {
        ctx.reportError("deadline", `no answer within ${deadline} ms; answered neutral`);
        answer(spec.neutral);
      }, deadline).unref();
    }
    answer(await spec.handle(ctx));
  } catch (err) {
    report("handle", err, { projectRoot });
    answer(fallback(err instanceof Error ? err.message : String(err), projectRoot));
  }
}
