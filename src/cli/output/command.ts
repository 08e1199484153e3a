/**
 * Shared plumbing of the diagnostics commands: `--json` or a text report, and caller mistakes
 * reported as one clear line on stderr with exit code 1 (no stack trace).
 */
import { InvalidArgumentError } from "commander";
import { resolve } from "node:path";
import { ConfigError } from "../../config/project-config.js";
import { AicInputError } from "../../service/errors.js";
import { resolveProjectRoot } from "../../service/project-root.js";
import { colours, type Colours } from "./colour.js";

export interface OutputOptions {
  json?: boolean;
}

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + "\n");
}

/** Print `value` as JSON with --json, else the text `render` makes of it. */
export function emit<T>(
  value: T,
  options: OutputOptions,
  render: (v: T, c: Colours) => string,
): void {
  if (options.json) printJson(value);
  else process.stdout.write(render(value, colours()));
}

export function failWith(command: string, err: unknown): never {
  const known =
    err instanceof AicInputError ||
    err instanceof ConfigError ||
    (err instanceof Error && err.name === "CompileInputError");
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`aic ${command}: ${message}\n`);
  if (!known && err instanceof Error && process.env.AIC_DEBUG)
    process.stderr.write(`${err.stack}\n`);
  process.exit(1);
}

/** Wrap a command action so known errors become a clear message and exit code 1. */
export function action<A extends unknown[]>(
  command: string,
  fn: (...args: A) => void | Promise<void>,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (err) {
      failWith(command, err);
    }
  };
}

/** Parse a positive number option (`--days`, `--budget`), or explain what is wrong. */
export function positiveNumber(name: string, integer = false): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) {
      throw new InvalidArgumentError(
        `--${name} must be a positive ${integer ? "whole " : ""}number.`,
      );
    }
    return n;
  };
}

/** `--project DIR`: relative to where the user stands, then validated like every project root. */
export function projectArg(dir: string): string {
  return resolveProjectRoot(resolve(process.cwd(), dir));
}

/** An optional `--project DIR` that narrows a report. */
export function optionalProjectArg(dir: string | undefined): string | undefined {
  return dir === undefined ? undefined : projectArg(dir);
}
