#!/usr/bin/env node
/**
 * Compiler speed and size on a large project (sympy, ~1,600 Python files):
 * - CLI, cold: first `aic compile` with an empty index cache (target <= 3 s).
 * - CLI, later: one process per compile with a new intent each (target median <= 300 ms).
 * - In-process warm: createCompiler() kept alive as the daemon does, new intents (median).
 * - CLI with a running daemon (`dist/cli.js`, when built): the CLI forwards to the warm daemon.
 * - Peak RSS of the CLI processes and of the in-process run (target <= 300 MB).
 * Every timing sits next to a baseline measured in the same run (`node -e 0`), because the
 * machine is shared. Appends the table to bench/RESULTS.md.
 *
 * Env: AIC_SPEED_PROJECT (default $AIC_BENCH_CACHE/sympy-head). Options: --runs N (default 7).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildBenchCli, BENCH_COMPILER } from "./lib/build.mjs";
import { median, recordRun, requirePath } from "./lib/results.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const runsArg = process.argv.indexOf("--runs");
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 7;
const project = requirePath(
  "AIC_SPEED_PROJECT",
  process.env.AIC_SPEED_PROJECT ??
    (process.env.AIC_BENCH_CACHE ? join(process.env.AIC_BENCH_CACHE, "sympy-head") : undefined),
  "a large extracted project such as sympy (or set AIC_BENCH_CACHE to the folder holding sympy-head)",
);

const INTENTS = [
  "simplify returns a wrong result for trigonometric expressions like sin(x)**2 + cos(x)**2",
  "solve fails on a polynomial equation with rational coefficients",
  "latex printer renders Matrix with symbols incorrectly",
  "integrate(exp(-x**2), (x, 0, oo)) hangs instead of returning sqrt(pi)/2",
  "factor over an algebraic extension field gives wrong factors for Poly",
  "nsimplify of sqrt(2) returns a Float instead of a Rational",
  "Derivative of a Piecewise function with respect to x loses conditions",
  "limit of (1 + 1/n)**n as n goes to infinity should be E",
  "lambdify with numpy module does not handle Heaviside",
  "series expansion of log(1 + x) around 0 has a wrong coefficient",
];

const cli = await buildBenchCli();
const home = mkdtempSync(join(tmpdir(), "aic-speed-"));
const usageFile = join(home, "usage.json");

function run(args, env = {}) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [join(here, "lib", "rss-wrapper.mjs"), ...args], {
    encoding: "utf8",
    env: { ...process.env, AIC_HOME: join(home, "aic"), AIC_BENCH_USAGE_FILE: usageFile, ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  const wallMs = performance.now() - t0;
  if (r.status !== 0) throw new Error(`run failed (${r.status}): ${r.stderr}`);
  return { wallMs, ...JSON.parse(readFileSync(usageFile, "utf8")), stdout: r.stdout };
}

const compileArgs = (intent) => [
  cli,
  "compile",
  "--project",
  project,
  "--intent",
  intent,
  "--budget",
  "8000",
  "--format",
  "json",
];

// Baseline: the cost of starting node at all, in this run.
const baseline = [];
for (let i = 0; i < RUNS; i++) baseline.push(run([join(here, "lib", "noop.mjs")]));

// CLI, cold: empty AIC_HOME.
rmSync(join(home, "aic"), { recursive: true, force: true });
const cold = run(compileArgs(INTENTS[0]));
const coldOut = JSON.parse(cold.stdout);

// CLI, later compiles: new intents, one process each.
const later = [];
for (let i = 0; i < RUNS; i++) later.push(run(compileArgs(INTENTS[(i + 1) % INTENTS.length])));

// In-process: a fresh cache, then new intents on a warm compiler.
const { createCompiler } = await import(pathToFileURL(BENCH_COMPILER).href);
const cacheRoot = mkdtempSync(join(tmpdir(), "aic-speed-inproc-"));
const compiler = createCompiler({ cacheRoot });
let t0 = performance.now();
await compiler.compile({ projectRoot: project, intent: INTENTS[0], budget: 8000 });
const inColdMs = performance.now() - t0;
const warm = [];
for (let i = 0; i < RUNS; i++) {
  t0 = performance.now();
  await compiler.compile({
    projectRoot: project,
    intent: INTENTS[(i + 1) % INTENTS.length],
    budget: 8000,
  });
  warm.push(performance.now() - t0);
}
const inProcRssMb = process.resourceUsage().maxRSS / 1024;

// CLI through a running daemon: dist/cli.js (the daemon is part of the installed package).
const distCli = join(here, "..", "dist", "cli.js");
let viaDaemon;
if (existsSync(distCli)) {
  const env = { AIC_HOME: join(home, "aic-daemon"), AIC_DAEMON: "" };
  try {
    const started = spawnSync(process.execPath, [distCli, "daemon", "start"], {
      encoding: "utf8",
      env: { ...process.env, ...env },
    });
    if (started.status !== 0) throw new Error(started.stderr);
    const first = run(
      [distCli, "compile", "--project", project, "--intent", INTENTS[0], "--format", "json"],
      env,
    );
    const version = [];
    const calls = [];
    for (let i = 0; i < RUNS; i++) {
      version.push(run([distCli, "--version"], env));
      calls.push(
        run(
          [
            distCli,
            "compile",
            "--project",
            project,
            "--intent",
            INTENTS[(i + 1) % INTENTS.length],
            "--format",
            "json",
          ],
          env,
        ),
      );
    }
    viaDaemon = { first, version, calls };
  } catch (err) {
    console.error(`bench: daemon rows skipped (${err.message.trim()})`);
  } finally {
    spawnSync(process.execPath, [distCli, "daemon", "stop"], { env: { ...process.env, ...env } });
  }
}
rmSync(cacheRoot, { recursive: true, force: true });
rmSync(home, { recursive: true, force: true });

const ms = (x) => `${Math.round(x)} ms`;
const mb = (kb) => `${Math.round(kb / 1024)} MB`;
const cpu = (r) => r.userMs + r.systemMs;
const nodeMed = median(baseline.map((r) => r.wallMs));
const laterMed = median(later.map((r) => r.wallMs));
const table = `Project: \`${project}\` (${coldOut.trace.scan.files} files scanned), ${RUNS} runs per row, budget 8000.

| measurement | wall | CPU (user+sys) | peak RSS | target | ratio to \`node -e 0\` |
|---|---|---|---|---|---|
| baseline \`node -e 0\` (median) | ${ms(nodeMed)} | ${ms(median(baseline.map(cpu)))} | ${mb(median(baseline.map((r) => r.maxRssKb)))} | | 1.0 |
| CLI, first compile, empty cache | ${ms(cold.wallMs)} | ${ms(cpu(cold))} | ${mb(cold.maxRssKb)} | <= 3 s | ${(cold.wallMs / nodeMed).toFixed(1)} |
| CLI, later compiles, new intents (median) | ${ms(laterMed)} | ${ms(median(later.map(cpu)))} | ${mb(Math.max(...later.map((r) => r.maxRssKb)))} (max) | <= 300 ms | ${(laterMed / nodeMed).toFixed(1)} |
| in-process, first compile, empty cache | ${ms(inColdMs)} | | | <= 3 s | |
| in-process warm (createCompiler), new intents (median) | ${ms(median(warm))} | | ${Math.round(inProcRssMb)} MB (whole bench process) | <= 300 ms | ${(median(warm) / nodeMed).toFixed(1)} |
${
  viaDaemon
    ? `| \`dist/cli.js --version\` (CLI start-up alone, median) | ${ms(median(viaDaemon.version.map((r) => r.wallMs)))} | ${ms(median(viaDaemon.version.map(cpu)))} | | | ${(median(viaDaemon.version.map((r) => r.wallMs)) / nodeMed).toFixed(1)} |
| \`dist/cli.js compile\` via running daemon, first (daemon cold) | ${ms(viaDaemon.first.wallMs)} | | | <= 3 s | |
| \`dist/cli.js compile\` via running daemon, new intents (median) | ${ms(median(viaDaemon.calls.map((r) => r.wallMs)))} | ${ms(median(viaDaemon.calls.map(cpu)))} (client) | ${mb(Math.max(...viaDaemon.calls.map((r) => r.maxRssKb)))} (client) | <= 300 ms | ${(median(viaDaemon.calls.map((r) => r.wallMs)) / nodeMed).toFixed(1)} |
`
    : "| CLI via daemon | not measured (dist/cli.js missing or daemon did not start) | | | | |\n"
}
CLI later compiles, each (ms): ${later.map((r) => Math.round(r.wallMs)).join(", ")}; in-process warm, each (ms): ${warm.map((x) => Math.round(x)).join(", ")}.
Load average at the end: ${(await import("node:os"))
  .loadavg()
  .map((x) => x.toFixed(2))
  .join(" ")} on ${(await import("node:os")).cpus().length} cores.
`;
console.log(table);
const file = recordRun(
  "Compiler speed (sympy)",
  `node bench/speed-compiler.mjs --runs ${RUNS}`,
  table,
);
console.log(`recorded in ${file}`);
