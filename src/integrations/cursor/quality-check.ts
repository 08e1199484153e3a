/**
 * The stop hook's quality gate (seed §7.8): the project's own ESLint and `tsc --noEmit`
 * (local-bin.ts; never a download) for the files edited in this conversation, per monorepo
 * package. Each tool runs with execFile and an argv array (no shell), all at once, under a time
 * limit.
 * A tool that crashes or cannot start is reported to the health log, never blamed on the edits.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { localBin, type LocalBin } from "./local-bin.js";

export interface Finding {
  tool: "eslint" | "tsc";
  file: string;
  line: number;
  column: number;
  code: string;
  message: string;
}

export interface ToolRun {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

export type Runner = (
  command: string,
  args: string[],
  cwd: string,
  timeoutMs: number,
) => Promise<ToolRun>;

export const TOOL_TIMEOUT_MS = 45_000;

export const runTool: Runner = async (command, args, cwd, timeoutMs) => {
  // Loaded on use: most stop events have nothing to check, and hooks start faster without it.
  const { execFile } = await import("node:child_process");
  return new Promise((done) => {
    execFile(
      command,
      args,
      { cwd, timeout: timeoutMs, maxBuffer: 32 * 1024 * 1024, windowsHide: true },
      (err, stdout, stderr) => {
        const e = err as
          (NodeJS.ErrnoException & { code?: number | string; killed?: boolean }) | null;
        done({
          code: e ? (typeof e.code === "number" ? e.code : null) : 0,
          stdout: String(stdout),
          stderr: String(stderr) || (e && typeof e.code === "string" ? e.message : ""),
          timedOut: Boolean(e?.killed),
        });
      },
    );
  });
};

const LINTABLE = /\.(?:[cm]?[jt]sx?)$/i;
const TYPED = /\.(?:[cm]?ts|tsx)$/i;

function projectRelative(projectRoot: string, file: string): string {
  const abs = isAbsolute(file) ? file : resolve(projectRoot, file);
  return relative(projectRoot, abs).split(sep).join("/");
}

interface EslintFile {
  filePath?: string;
  messages?: {
    ruleId?: string | null;
    severity?: number;
    message?: string;
    line?: number;
    column?: number;
  }[];
}

export function parseEslintJson(projectRoot: string, stdout: string): Finding[] {
  const report = JSON.parse(stdout) as EslintFile[];
  const out: Finding[] = [];
  for (const f of report) {
    for (const m of f.messages ?? []) {
      if (m.severity !== 2) continue;
      out.push({
        tool: "eslint",
        file: projectRelative(projectRoot, f.filePath ?? ""),
        line: m.line ?? 0,
        column: m.column ?? 0,
        code: m.ruleId ?? "eslint",
        message: (m.message ?? "").trim(),
      });
    }
  }
  return out;
}

const TSC_LINE = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/;
/** tsc prints paths relative to the folder it ran in (`cwd`). */
export function parseTscOutput(projectRoot: string, stdout: string, cwd = projectRoot): Finding[] {
  const out: Finding[] = [];
  for (const line of stdout.split(/\r?\n/)) {
    const m = TSC_LINE.exec(line);
    if (!m) continue;
    out.push({
      tool: "tsc",
      file: projectRelative(projectRoot, resolve(cwd, m[1]!)),
      line: Number(m[2]),
      column: Number(m[3]),
      code: m[4]!,
      message: m[5]!.trim(),
    });
  }
  return out;
}

export interface QualityResult {
  findings: Finding[];
  /** Tools that could not give a verdict (crash, timeout, bad config): for the health log. */
  problems: string[];
  /** Each tool run, as "<tool> in <folder>" (project-relative, "." for the root). */
  ran: string[];
}

/** The nearest folder from `file`'s up to the project root for which `has` holds. */
function nearest(
  projectRoot: string,
  file: string,
  has: (dir: string) => boolean,
): string | undefined {
  for (let dir = dirname(join(projectRoot, file)); ; dir = dirname(dir)) {
    if (has(dir)) return dir;
    if (dir === projectRoot || !dir.startsWith(projectRoot + sep)) return undefined;
  }
}

const ESLINT_CONFIGS = [
  "eslint.config.js",
  "eslint.config.mjs",
  "eslint.config.cjs",
  "eslint.config.ts",
  "eslint.config.mts",
  "eslint.config.cts",
  ".eslintrc",
  ".eslintrc.js",
  ".eslintrc.cjs",
  ".eslintrc.json",
  ".eslintrc.yaml",
  ".eslintrc.yml",
];

/**
 * Does the project configure ESLint for `dir` (a config file there or above it, up to the project
 * root)? An ESLint that only arrived as some dependency's dependency has no config, exits 2 on
 * every run and would fill the health log with failures that are not the project's.
 */
function configuresEslint(projectRoot: string, dir: string): boolean {
  for (let d = dir; ; d = dirname(d)) {
    if (ESLINT_CONFIGS.some((name) => existsSync(join(d, name)))) return true;
    if (declaresEslintConfig(join(d, "package.json"))) return true;
    if (d === projectRoot || !d.startsWith(projectRoot + sep)) return false;
  }
}

function declaresEslintConfig(packageJson: string): boolean {
  try {
    return "eslintConfig" in (JSON.parse(readFileSync(packageJson, "utf8")) as object);
  } catch {
    return false;
  }
}

/** Files grouped by the folder a tool must run from (a monorepo package, or the root). */
function groupBy(
  files: string[],
  dirOf: (file: string) => string | undefined,
): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const f of files) {
    const dir = dirOf(f);
    if (dir !== undefined) groups.set(dir, [...(groups.get(dir) ?? []), f]);
  }
  return groups;
}

export async function checkEditedFiles(
  projectRoot: string,
  editedFiles: string[],
  deps: { run?: Runner; timeoutMs?: number } = {},
): Promise<QualityResult> {
  const run = deps.run ?? runTool;
  const timeoutMs = deps.timeoutMs ?? TOOL_TIMEOUT_MS;
  const existing = editedFiles
    .map((f) => projectRelative(projectRoot, f))
    .filter((f) => !f.startsWith("..") && existsSync(join(projectRoot, f)));
  const result: QualityResult = { findings: [], problems: [], ran: [] };
  const jobs: Promise<void>[] = [];
  const where = (dir: string): string => projectRelative(projectRoot, dir) || ".";
  const bins = new Map<string, LocalBin | undefined>();
  const binIn = (dir: string, pkg: string, name: string): LocalBin | undefined => {
    const key = `${name}\0${dir}`;
    if (!bins.has(key)) bins.set(key, localBin(dir, pkg, name));
    return bins.get(key);
  };

  // ESLint from the nearest folder that has its own ESLint (flat config is found from there).
  const lintable = existing.filter((f) => LINTABLE.test(f));
  const eslintDir = (f: string) =>
    nearest(projectRoot, f, (d) => binIn(d, "eslint", "eslint") !== undefined);
  for (const [dir, files] of groupBy(lintable, eslintDir)) {
    if (!configuresEslint(projectRoot, dir)) continue;
    const eslint = binIn(dir, "eslint", "eslint")!;
    result.ran.push(`eslint in ${where(dir)}`);
    const args = [
      ...eslint.prefix,
      "--format",
      "json",
      "--",
      ...files.map((f) => join(projectRoot, f)),
    ];
    jobs.push(
      run(eslint.command, args, dir, timeoutMs).then((r) => {
        // ESLint: 0 clean, 1 lint errors, 2 configuration or internal error.
        if (r.timedOut)
          return void result.problems.push(
            `eslint in ${where(dir)} timed out after ${timeoutMs} ms`,
          );
        try {
          result.findings.push(...parseEslintJson(projectRoot, r.stdout));
        } catch {
          result.problems.push(
            `eslint exited ${r.code} in ${where(dir)}: ${r.stderr.trim().slice(0, 500) || "no JSON report"}`,
          );
        }
      }),
    );
  }

  // tsc for the nearest tsconfig.json, with the nearest TypeScript at or above it.
  const typed = existing.filter((f) => TYPED.test(f));
  const tsconfigDir = (f: string) =>
    nearest(projectRoot, f, (d) => existsSync(join(d, "tsconfig.json")));
  for (const [dir, files] of groupBy(typed, tsconfigDir)) {
    const binDir = nearest(
      projectRoot,
      join(projectRelative(projectRoot, dir), "tsconfig.json"),
      (d) => binIn(d, "typescript", "tsc") !== undefined,
    );
    if (binDir === undefined) continue;
    const tsc = binIn(binDir, "typescript", "tsc")!;
    const mine = new Set(files);
    result.ran.push(`tsc in ${where(dir)}`);
    const args = [...tsc.prefix, "--noEmit", "--pretty", "false", "-p", "tsconfig.json"];
    jobs.push(
      run(tsc.command, args, dir, timeoutMs).then((r) => {
        if (r.timedOut)
          return void result.problems.push(`tsc in ${where(dir)} timed out after ${timeoutMs} ms`);
        const all = parseTscOutput(projectRoot, r.stdout, dir);
        // Errors elsewhere in the project are not this conversation's doing.
        result.findings.push(...all.filter((f) => mine.has(f.file)));
        if (r.code !== 0 && all.length === 0)
          result.problems.push(
            `tsc exited ${r.code} in ${where(dir)}: ${(r.stdout + r.stderr).trim().slice(0, 500)}`,
          );
      }),
    );
  }
  await Promise.all(jobs);
  return result;
}

export const MAX_LISTED = 20;

export function followupMessage(findings: Finding[]): string | undefined {
  if (findings.length === 0) return undefined;
  const lines = ["AIC quality check: the files you edited have errors. Fix them before finishing."];
  for (const tool of ["eslint", "tsc"] as const) {
    const mine = findings.filter((f) => f.tool === tool);
    if (!mine.length) continue;
    const label = tool === "eslint" ? "ESLint" : "TypeScript (tsc --noEmit)";
    lines.push("", `${label}: ${mine.length} error${mine.length === 1 ? "" : "s"}`);
    for (const f of mine.slice(0, MAX_LISTED))
      lines.push(`- ${f.file}:${f.line}:${f.column} ${f.code}: ${f.message}`);
    if (mine.length > MAX_LISTED) lines.push(`- …and ${mine.length - MAX_LISTED} more`);
  }
  lines.push(
    "",
    "Re-run the project's ESLint and `tsc --noEmit` (node_modules/.bin) to confirm they are clean.",
  );
  return lines.join("\n");
}
