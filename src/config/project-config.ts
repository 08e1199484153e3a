/**
 * `aic.config.json`: optional per-project settings. Validated by hand (no schema library) so the
 * hooks that read it stay small and start fast. A bad value is an error that names the key; an
 * unknown key is a warning, never silently dropped.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const CONFIG_FILE_NAME = "aic.config.json";

export interface ProjectConfig {
  /** Token budget for compiles that do not pass one. */
  budget: number;
  /** Model id recorded with compilations when the caller gives none. */
  model?: string;
  /** How long one `aic_compile` keeps the compile gate open for the project, in seconds. */
  compileRecencyWindowSecs: number;
  /** Regexes (as strings) whose matches the guard never redacts. */
  guardAllowPatterns: string[];
  devMode: boolean;
  /** Bypasses the compile gate, but only together with devMode. */
  skipCompileGate: boolean;
  /** Age after which JSONL log lines under `.aic/` are pruned. */
  logRetentionDays: number;
  /** Run the Cursor installer from the MCP server on a project's first compile. */
  editorBootstrap: boolean;
}

export const DEFAULT_CONFIG: Readonly<ProjectConfig> = Object.freeze({
  budget: 8000,
  compileRecencyWindowSecs: 300,
  guardAllowPatterns: [],
  devMode: false,
  skipCompileGate: false,
  logRetentionDays: 7,
  editorBootstrap: false,
});

export class ConfigError extends Error {
  constructor(
    message: string,
    readonly key?: string,
  ) {
    super(message);
    this.name = "ConfigError";
  }
}

export interface LoadedConfig {
  config: ProjectConfig;
  /** Absent when the project has no config file. */
  path?: string;
  warnings: string[];
}

type Check = (value: unknown) => string | undefined;
const positiveInt: Check = (v) =>
  typeof v === "number" && Number.isInteger(v) && v > 0 ? undefined : "must be a positive integer";
const bool: Check = (v) => (typeof v === "boolean" ? undefined : "must be true or false");
const nonEmptyString: Check = (v) =>
  typeof v === "string" && v.trim() !== "" ? undefined : "must be a non-empty string";
const regexList: Check = (v) => {
  if (!Array.isArray(v) || !v.every((s) => typeof s === "string"))
    return "must be an array of strings";
  for (const s of v as string[]) {
    try {
      new RegExp(s);
    } catch {
      return `has an invalid regular expression: ${JSON.stringify(s)}`;
    }
  }
  return undefined;
};

const KEYS: Record<string, { check: Check; field: keyof ProjectConfig }> = {
  budget: { check: positiveInt, field: "budget" },
  model: { check: nonEmptyString, field: "model" },
  compileRecencyWindowSecs: { check: positiveInt, field: "compileRecencyWindowSecs" },
  guardAllowPatterns: { check: regexList, field: "guardAllowPatterns" },
  devMode: { check: bool, field: "devMode" },
  skipCompileGate: { check: bool, field: "skipCompileGate" },
  logRetentionDays: { check: positiveInt, field: "logRetentionDays" },
  editorBootstrap: { check: bool, field: "editorBootstrap" },
};

/** Validate an already-parsed config object. Throws ConfigError naming the first bad key. */
export function parseProjectConfig(raw: unknown, source = CONFIG_FILE_NAME): LoadedConfig {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw new ConfigError(`${source}: the top level must be a JSON object`);
  }
  const config: ProjectConfig = { ...DEFAULT_CONFIG, guardAllowPatterns: [] };
  const warnings: string[] = [];
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const spec = KEYS[key];
    if (!spec) {
      warnings.push(
        `${source}: unknown key "${key}" is ignored (known keys: ${Object.keys(KEYS).join(", ")})`,
      );
      continue;
    }
    const problem = spec.check(value);
    if (problem) throw new ConfigError(`${source}: "${key}" ${problem}`, key);
    (config as unknown as Record<string, unknown>)[spec.field] = value;
  }
  return { config, warnings };
}

/** Read `<projectRoot>/aic.config.json`; defaults when the file does not exist. */
export function loadProjectConfig(projectRoot: string): LoadedConfig {
  const path = join(projectRoot, CONFIG_FILE_NAME);
  if (!existsSync(path))
    return { config: { ...DEFAULT_CONFIG, guardAllowPatterns: [] }, warnings: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new ConfigError(
      `${path}: not valid JSON (${(err as Error).message}); fix or delete the file`,
    );
  }
  return { ...parseProjectConfig(raw, path), path };
}
