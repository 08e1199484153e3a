/**
 * Running the hooks the way Cursor does: each built AIC-*.cjs as its own `node` process, cwd at
 * the project root, the payload on stdin, CURSOR_PROJECT_DIR set; AIC_HOME and HOME point at
 * temporary folders so no test touches the real ~/.aic or ~/.cursor.
 */
import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { hookBundleOptions } from "../../scripts/hook-bundle-options.mjs";

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const HOOK_SRC = join(REPO_ROOT, "src/integrations/cursor/hooks");
const FIXTURES = join(REPO_ROOT, "tests/fixtures/cursor");
const FIXTURE_ROOT = "/home/dev/projects/shop-api";

/**
 * Bundle every hook entry with the same options as scripts/build.mjs into a private folder, so the
 * tests run real bundles without racing other builds of the shared dist/.
 */
export async function buildHooks(): Promise<string> {
  const out = mkdtempSync(join(tmpdir(), "aic-hooks-"));
  const entries = readdirSync(HOOK_SRC).filter((f) => /^AIC-.*\.ts$/.test(f));
  await Promise.all(
    entries.map((entry) =>
      build({
        entryPoints: [join(HOOK_SRC, entry)],
        outfile: join(out, entry.replace(/\.ts$/, ".cjs")),
        ...hookBundleOptions,
      }),
    ),
  );
  return out;
}

export interface Sandbox {
  root: string;
  home: string;
  aicHome: string;
  env: NodeJS.ProcessEnv;
}

export function makeSandbox(): Sandbox {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "aic-hook-test-")));
  const root = join(base, "project");
  const home = join(base, "home");
  mkdirSync(root);
  mkdirSync(home);
  const aicHome = join(home, ".aic");
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    AIC_HOME: aicHome,
    CURSOR_PROJECT_DIR: root,
    // The compiling hooks would otherwise start a resident daemon that outlives the test
    // (the daemon path has its own tests under tests/daemon).
    AIC_DAEMON: "off",
  };
  return { root, home, aicHome, env };
}

/** A fixture with its made-up project root replaced by `root`. */
export function fixture(name: string, root: string): Record<string, unknown> {
  const text = readFileSync(join(FIXTURES, `${name}.json`), "utf8");
  return JSON.parse(text.split(FIXTURE_ROOT).join(root)) as Record<string, unknown>;
}

export interface HookRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed, or undefined when stdout is empty. */
  json: Record<string, unknown> | undefined;
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  args?: string[];
}

export function runHook(
  hooksDir: string,
  script: string,
  sandbox: Sandbox,
  stdin: string | Buffer | Record<string, unknown>,
  opts: RunOptions = {},
): Promise<HookRun> {
  const input = typeof stdin === "string" || Buffer.isBuffer(stdin) ? stdin : JSON.stringify(stdin);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(hooksDir, script), ...(opts.args ?? [])], {
      cwd: opts.cwd ?? sandbox.root,
      env: { ...sandbox.env, ...opts.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString("utf8")));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
    // A hook may stop reading an oversized stdin; the broken pipe is expected then.
    child.stdin.on("error", () => undefined);
    child.on("error", reject);
    child.on("close", (code) => {
      let json: Record<string, unknown> | undefined;
      if (stdout.trim() !== "") json = JSON.parse(stdout) as Record<string, unknown>;
      resolve({ code, stdout, stderr, json });
    });
    child.stdin.end(input);
  });
}

export interface StartedHook {
  /** The hook's stdin, left open for the test to write to and close when it wants. */
  stdin: NodeJS.WritableStream;
  /** Resolves when the process has ended; the test should destroy stdin afterwards. */
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }>;
  end(): void;
}

/** Start a hook without writing its stdin: for tests of how it reads its input. */
export function startHook(hooksDir: string, script: string, sandbox: Sandbox): StartedHook {
  const child = spawn(process.execPath, [join(hooksDir, script)], {
    cwd: sandbox.root,
    env: sandbox.env,
  });
  let stdout = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString("utf8")));
  child.stdin.on("error", () => undefined);
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }>(
    (resolve) => child.on("close", (code, signal) => resolve({ code, signal, stdout })),
  );
  return { stdin: child.stdin, done, end: () => child.stdin.destroy() };
}

export function readHealth(sandbox: Sandbox): Record<string, unknown>[] {
  try {
    return readFileSync(join(sandbox.aicHome, "hook-health.jsonl"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  } catch {
    return [];
  }
}

/** Every file under `dir`, relative, sorted (for "no side effects" checks). */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, rel: string): void => {
    let names: string[] = [];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const n of names) {
      const p = join(d, n);
      const r = rel ? `${rel}/${n}` : n;
      try {
        readdirSync(p);
        walk(p, r);
      } catch {
        out.push(r);
      }
    }
  };
  walk(dir, "");
  return out.sort();
}

/** A package root whose compilation service records each input and answers like the real one. */
export function standInPackage(sb: Sandbox): {
  root: string;
  calls: () => Record<string, unknown>[];
} {
  const root = join(sb.home, "aic-package");
  const record = join(root, "calls.jsonl");
  mkdirSync(join(root, "dist/service"), { recursive: true });
  writeFileSync(join(root, "package.json"), '{"type":"module"}');
  writeFileSync(
    join(root, "dist/service/compilation-service.js"),
    `import { appendFileSync } from "node:fs";
export async function runCompilation(input) {
  appendFileSync(${JSON.stringify(record)}, JSON.stringify(input) + "\\n");
  if (process.env.STAND_IN_SLOW) await new Promise((r) => setTimeout(r, 60000));
  if (input.reparentFromConversationId) return { reparented: true, rowsUpdated: 2 };
  return { reparented: false, prompt: "## Task\\n" + input.intent + "\\n## Files\\nsrc/a.ts", context: { files: [{ path: "src/a.ts" }] }, meta: {} };
}
`,
  );
  const calls = (): Record<string, unknown>[] =>
    existsSync(record)
      ? readFileSync(record, "utf8")
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l) as Record<string, unknown>)
      : [];
  return { root, calls };
}
