/**
 * `aic compile --project DIR (--intent TEXT | --intent-file F) [--budget N] [--format text|json]`.
 * JSON output is the contract benchmarks and external evaluations call (DESIGN.md). Bad input: a
 * message on stderr, exit code 2, nothing on stdout. When a daemon of this build is running the
 * compile runs there (its index is warm); otherwise in this process (`AIC_DAEMON=off` forces
 * that). The compiler is imported lazily so other subcommands do not pay for it.
 */
import type { Command } from "commander";
import { readFileSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { broadRootReason } from "../service/project-root.js";

export interface CompileCliOptions {
  project?: string;
  intent?: string;
  intentFile?: string;
  budget?: string;
  format?: string;
}

class UsageError extends Error {}

function fail(message: string, code: number): void {
  process.stderr.write(`aic compile: ${message}\n`);
  process.exitCode = code;
}

function readIntent(opts: CompileCliOptions): string {
  if (opts.intent !== undefined && opts.intentFile !== undefined)
    throw new UsageError("give either --intent or --intent-file, not both.");
  if (opts.intentFile !== undefined) {
    try {
      return readFileSync(resolve(opts.intentFile), "utf8");
    } catch (err) {
      throw new UsageError(
        `cannot read the intent file ${resolve(opts.intentFile)} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): check the path.`,
      );
    }
  }
  if (opts.intent === undefined)
    throw new UsageError("no intent: pass --intent TEXT or --intent-file F.");
  return opts.intent;
}

function parseBudget(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\s*\d+\s*$/.test(raw) || Number(raw) <= 0)
    throw new UsageError(
      `--budget "${raw}" is not a positive whole number of tokens: pass e.g. --budget 8000.`,
    );
  return Number(raw);
}

/** `/` or the home folder would scan the whole disk (or every project) before failing. */
function refuseBroadRoot(projectRoot: string): void {
  let real: string;
  try {
    real = realpathSync(projectRoot);
  } catch {
    return; // missing or unreadable: compile() says which, precisely
  }
  const reason = broadRootReason(real);
  if (reason !== undefined) throw new UsageError(`Project folder ${projectRoot} ${reason}.`);
}

export async function runCompile(opts: CompileCliOptions): Promise<void> {
  try {
    if (!opts.project) throw new UsageError("no project: pass --project DIR.");
    const format = opts.format ?? "text";
    if (format !== "text" && format !== "json")
      throw new UsageError(`--format "${format}" is not supported: use text or json.`);
    const intent = readIntent(opts);
    const budgetArg = parseBudget(opts.budget);
    const projectRoot = resolve(opts.project);
    refuseBroadRoot(projectRoot);
    const [{ CompileInputError }, { loadProjectConfig, ConfigError }, { createForwardingCompile }] =
      await Promise.all([
        import("../compiler/index.js"),
        import("../config/project-config.js"),
        import("../daemon/forward-compile.js"),
      ]);
    const compile = createForwardingCompile();
    let config;
    try {
      config = loadProjectConfig(projectRoot).config;
    } catch (err) {
      if (err instanceof ConfigError) throw new UsageError(err.message);
      config = undefined; // unreadable project: compile() reports it precisely
    }
    let result;
    try {
      result = await compile({
        projectRoot,
        intent,
        budget: budgetArg ?? config?.budget,
        model: config?.model,
        guardAllowPatterns: config?.guardAllowPatterns,
      });
    } catch (err) {
      if (err instanceof CompileInputError) throw new UsageError(err.message);
      throw err;
    }
    if (format === "json") {
      const { ranking, files, prompt, tokens, trace, durationMs } = result;
      process.stdout.write(
        `${JSON.stringify({ ranking, files, prompt, tokens, trace, durationMs })}\n`,
      );
    } else {
      process.stdout.write(result.prompt);
    }
  } catch (err) {
    if (err instanceof UsageError) fail(err.message, 2);
    else fail(`internal error: ${(err as Error).stack ?? String(err)}`, 1);
  }
}

export function registerCompileCommand(program: Command): void {
  program
    .command("compile")
    .description("compile the context for an intent: ranked, guarded, packed to a token budget")
    .option("--project <dir>", "the project folder")
    .option("--intent <text>", "what the task is about")
    .option("--intent-file <file>", "read the intent from a file")
    .option(
      "--budget <tokens>",
      "token budget for the whole prompt (default 8000 or aic.config.json)",
    )
    .option(
      "--format <format>",
      "text (the prompt) or json (ranking, files, prompt, tokens, trace)",
      "text",
    )
    .action(runCompile);
}
