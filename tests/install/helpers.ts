/**
 * Test scaffolding for the installer: a private copy of the built package (so another engineer's
 * `npm run build` cannot pull dist/ away mid-test), temporary projects and homes, a runner for
 * the built CLI exactly as a user starts it, and whole-tree snapshots (bytes and mtimes).
 */
import { spawn, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { HOOK_SCRIPTS } from "../../src/integrations/cursor/manifest.js";

export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

const cleanups: string[] = [];
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `aic-install-${prefix}-`));
  cleanups.push(dir);
  return dir;
}
export function cleanupTempDirs(): void {
  for (const dir of cleanups.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A stand-in bundle, used only when the hook bundles have not been built yet. */
export function fixtureBundle(script: string): string {
  return `"use strict";\n// ${script}: installer test fixture\nconst root = "__AIC_PACKAGE_ROOT__";\nprocess.stdout.write(JSON.stringify({ root }));\n`;
}

/**
 * A copy of the built package: dist/ (needs `npm run build`), package.json and a link to
 * node_modules. The real hook bundles are used when the build has all of them.
 */
export function builtPackageCopy(): { root: string; realHooks: boolean } {
  // AIC_TEST_DIST: a contributor's private build (tsc --outDir) to test against instead of dist/.
  const dist = process.env.AIC_TEST_DIST ?? join(REPO_ROOT, "dist");
  if (!existsSync(join(dist, "install", "install-cursor.js"))) {
    throw new Error("dist/install is missing: run `npm run build` before these tests");
  }
  const root = tempDir("pkg");
  cpSync(dist, join(root, "dist"), { recursive: true });
  cpSync(join(REPO_ROOT, "package.json"), join(root, "package.json"));
  symlinkSync(join(REPO_ROOT, "node_modules"), join(root, "node_modules"), "dir");
  const hooksDir = join(root, "dist", "hooks");
  const realHooks = HOOK_SCRIPTS.every((s) => existsSync(join(hooksDir, s)));
  if (!realHooks) {
    console.warn("installer tests: dist/hooks is incomplete, using fixture hook bundles");
    writeFixtureBundles(hooksDir);
  }
  return { root, realHooks };
}

export function writeFixtureBundles(
  hooksDir: string,
  scripts: readonly string[] = HOOK_SCRIPTS,
): void {
  mkdirSync(hooksDir, { recursive: true });
  for (const s of scripts) writeFileSync(join(hooksDir, s), fixtureBundle(s));
}

export interface Sandbox {
  home: string;
  aicHome: string;
  project: string;
  env: NodeJS.ProcessEnv;
}

/** A temp HOME, AIC_HOME and project folder (optionally a real git repository). */
export function sandbox(opts: { git?: boolean; homeName?: string } = {}): Sandbox {
  const base = tempDir("sbx");
  const home = join(base, opts.homeName ?? "home");
  const aicHome = join(base, "aic-home");
  const project = join(base, "project");
  mkdirSync(home);
  mkdirSync(project);
  if (opts.git) {
    const res = spawnSync("git", ["init", "-q", project], { encoding: "utf8" });
    if (res.status !== 0) throw new Error(`git init failed: ${res.stderr}`);
  }
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    USERPROFILE: home,
    AIC_HOME: aicHome,
    NO_COLOR: "1",
    GIT_CONFIG_NOSYSTEM: "1",
  };
  return { home, aicHome, project, env };
}

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function runCli(
  pkgRoot: string,
  sbx: Sandbox,
  args: string[],
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(pkgRoot, "dist", "cli.js"), ...args], {
      cwd: sbx.project,
      env: { ...sbx.env, ...extraEnv },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

export interface TreeEntry {
  kind: "file" | "dir";
  bytes?: string;
  mode: number;
  mtimeMs?: number;
}

/** Every file and folder under `dir` (relative paths), with content, mode and file mtimes. */
export function treeSnapshot(
  dir: string,
  skip: (rel: string) => boolean = () => false,
): Map<string, TreeEntry> {
  const out = new Map<string, TreeEntry>();
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      const rel = relative(dir, path);
      if (skip(rel)) continue;
      const st = lstatSync(path);
      if (st.isDirectory()) {
        out.set(rel, { kind: "dir", mode: st.mode & 0o7777 });
        walk(path);
      } else {
        out.set(rel, {
          kind: "file",
          bytes: readFileSync(path).toString("base64"),
          mode: st.mode & 0o7777,
          mtimeMs: st.mtimeMs,
        });
      }
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

/** The same snapshot without mtimes, for "same bytes" comparisons after a restore. */
export function contentOnly(
  tree: Map<string, TreeEntry>,
): Record<string, Omit<TreeEntry, "mtimeMs">> {
  return Object.fromEntries([...tree].map(([k, { mtimeMs: _m, ...rest }]) => [k, rest]));
}

/** git's own objects change on every git command; what matters is the work tree and info/exclude. */
export const skipGitInternals = (rel: string) =>
  rel.startsWith(".git/") && rel !== ".git/info" && rel !== ".git/info/exclude";

export function read(path: string): string {
  return readFileSync(path, "utf8");
}
