#!/usr/bin/env node
/**
 * Hook start-up speed: median wall time of each hook that does not compile, run exactly as Cursor
 * runs it (a fresh `node` process, payload on stdin), beside `node -e 0` measured in the same run
 * with the runs interleaved, so machine load hits both alike. Target: ratio ≤ 1.3.
 *
 *   npm run build && node bench/hooks-speed.mjs [--runs 25] [--write] [--hooks DIR]
 *
 * --write replaces the "## Hooks" section of bench/RESULTS.md (other sections are kept).
 */
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { benchEnv, cursorFixture } from "./lib/measure.mjs";
import { median } from "./lib/results.mjs";

const repo = new URL("..", import.meta.url).pathname;
const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const hooksDir = option("--hooks") ?? join(repo, "dist/hooks");
const runs =
  Number(args[args.indexOf("--runs") + 1]) > 0 ? Number(args[args.indexOf("--runs") + 1]) : 25;

if (!existsSync(join(hooksDir, "AIC-require-aic-compile.cjs"))) {
  console.error(`No built hooks in ${hooksDir}. Run \`npm run build\` first.`);
  process.exit(1);
}

const base = realpathSync(mkdtempSync(join(tmpdir(), "aic-hook-bench-")));
const root = join(base, "project");
const home = join(base, "home");
mkdirSync(root);
mkdirSync(home);
const env = benchEnv(home, { CURSOR_PROJECT_DIR: root });

const fixture = (name, patch = {}) => ({ ...cursorFixture(name, root), ...patch });

/** One payload per non-compiling hook, on its usual (fast) path. */
const cases = [
  ["AIC-session-init.cjs", fixture("sessionStart")],
  ["AIC-before-submit-prewarm.cjs", fixture("beforeSubmitPrompt")],
  // The allow path after a compile in this generation (a deny waits up to 500 ms by design).
  ["AIC-require-aic-compile.cjs", fixture("preToolUse.read")],
  ["AIC-inject-conversation-id.cjs", fixture("preToolUse.mcp-aic-compile")],
  ["AIC-post-compile-context.cjs", fixture("postToolUse.mcp-aic-compile")],
  ["AIC-block-no-verify.cjs", fixture("beforeShellExecution.git-no-verify")],
  ["AIC-after-file-edit-tracker.cjs", fixture("afterFileEdit")],
  // No local ESLint/tsc in the bench project: this is the hook's own cost, not the linters'.
  ["AIC-stop-quality-check.cjs", fixture("stop")],
  [
    "AIC-session-end.cjs",
    fixture("sessionEnd", { conversation_id: "bench-ended", session_id: "bench-ended" }),
  ],
  ["AIC-subagent-start-model-id.cjs", fixture("subagentStart")],
  ["AIC-pre-compact.cjs", fixture("preCompact")],
];

function timeOnce(argv, input) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, argv, { cwd: root, env, input, encoding: "utf8" });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${argv.join(" ")} exited ${r.status}: ${r.stderr}`);
  return ms;
}

/**
 * CPU time (user + system) of one run, reported by the process itself at exit through a
 * preloaded probe. Unlike wall time it does not grow with scheduling delays on a busy machine.
 */
const probe = join(base, "cpu-probe.cjs");
writeFileSync(
  probe,
  'process.on("exit", () => { const u = process.cpuUsage(); require("fs").writeSync(2, `AIC_CPU_MS=${(u.user + u.system) / 1000}\\n`); });\n',
);
function cpuOnce(argv, input) {
  const r = spawnSync(process.execPath, ["-r", probe, ...argv], {
    cwd: root,
    env,
    input,
    encoding: "utf8",
  });
  const m = /AIC_CPU_MS=([\d.]+)/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`${argv.join(" ")} exited ${r.status}: ${r.stderr}`);
  return Number(m[1]);
}

// Open the gate once so the gate case measures its allow path.
timeOnce(
  [join(hooksDir, "AIC-require-aic-compile.cjs")],
  JSON.stringify(fixture("preToolUse.mcp-aic-compile")),
);

const baseline = [];
const rows = [];
for (const [script, payload] of cases) {
  const input = JSON.stringify(payload);
  const hook = [join(hooksDir, script)];
  const wall = { hook: [], base: [] };
  const cpu = { hook: [], base: [] };
  timeOnce(hook, input); // warm the file cache
  for (let i = 0; i < runs; i++) {
    wall.base.push(timeOnce(["-e", "0"], ""));
    wall.hook.push(timeOnce(hook, input));
    cpu.base.push(cpuOnce(["-e", "0"], ""));
    cpu.hook.push(cpuOnce(hook, input));
  }
  baseline.push(...wall.base);
  // Ratios are against the baseline runs interleaved with this hook's runs, so a change in
  // machine load during the benchmark affects both sides of each ratio alike.
  rows.push({
    script,
    median: median(wall.hook),
    ratio: median(wall.hook) / median(wall.base),
    cpu: median(cpu.hook),
    cpuRatio: median(cpu.hook) / median(cpu.base),
  });
}
const base0 = median(baseline);
rmSync(base, { recursive: true, force: true });

const lines = [
  `Measured ${new Date().toISOString()} on ${cpus().length} CPU(s) (${cpus()[0]?.model ?? "?"}), Node ${process.version},`,
  `${runs} runs per hook, each interleaved with a \`node -e 0\` run; ratio = hook median / median of`,
  `its interleaved baseline runs (${baseline.length} baseline runs in all). Command:`,
  "`npm run build && node bench/hooks-speed.mjs --write`" +
    (option("--hooks")
      ? ` (bundles from ${option("--hooks")}, built with the build's esbuild options)`
      : "") +
    ". Target: ratio ≤ 1.3.",
  "",
  "| hook | wall median ms | wall ratio to `node -e 0` | CPU median ms | CPU ratio |",
  "|---|---:|---:|---:|---:|",
  `| \`node -e 0\` (baseline) | ${base0.toFixed(1)} | 1.00 | | 1.00 |`,
  ...rows.map(
    (r) =>
      `| ${r.script} | ${r.median.toFixed(1)} | ${r.ratio.toFixed(2)}${r.ratio > 1.3 ? " ✗" : ""} | ${r.cpu.toFixed(1)} | ${r.cpuRatio.toFixed(2)} |`,
  ),
  "",
  `Wall ratio: worst ${Math.max(...rows.map((r) => r.ratio)).toFixed(2)}, median ${median(rows.map((r) => r.ratio)).toFixed(2)}. ` +
    `CPU ratio: worst ${Math.max(...rows.map((r) => r.cpuRatio)).toFixed(2)}, median ${median(rows.map((r) => r.cpuRatio)).toFixed(2)}.`,
  "CPU is user+system time the process reports at exit (a preloaded probe, in separate runs): it",
  "does not grow with scheduling delays, which a hook meets more than `node -e 0` because it waits",
  "once for its stdin. The machine's load average during the run was " +
    `${loadavg()
      .map((l) => l.toFixed(1))
      .join(" / ")} (1/5/15 min).`,
  "The compiling hooks (AIC-compile-context, AIC-subagent-compile, AIC-subagent-stop) are measured by the daemon benchmark.",
];
console.log(lines.join("\n"));

if (args.includes("--write")) {
  const file = join(repo, "bench/RESULTS.md");
  const current = existsSync(file) ? readFileSync(file, "utf8") : "# Benchmark results\n";
  const section = `## Hooks\n\n${lines.join("\n")}\n`;
  const re = /^## Hooks\n[\s\S]*?(?=^## |(?![\s\S]))/m;
  const next = re.test(current)
    ? current.replace(re, section + "\n")
    : `${current.trimEnd()}\n\n${section}`;
  writeFileSync(file, next.replace(/\n{3,}/g, "\n\n"));
  console.log(`\nwrote the Hooks section of ${file}`);
}
