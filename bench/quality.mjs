#!/usr/bin/env node
/**
 * Quality benchmark: runs the SWE-bench file-localisation harness on the dev set against
 * `aic compile` and, in the same command, the built-in bm25-py baseline; prints one table and
 * appends it to bench/RESULTS.md.
 *
 * Env (required): AIC_BENCH_MIRRORS (bare mirrors root), AIC_BENCH_CACHE (extractions).
 * Env (optional): AIC_BENCH_HARNESS (default ../shared/bench/swebench/harness.py),
 *                 AIC_BENCH_DATASET (default ../shared/bench/swebench-dev.json).
 * Options: --budgets 8000,16000,32000  --repo owner/name  --limit N  --out DIR  --no-baseline
 *          --cli dist   (run `node dist/cli.js compile` instead of the pinned bench build)
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildBenchCli } from "./lib/build.mjs";
import { recordRun, requirePath } from "./lib/results.mjs";

const repoRoot = resolve(fileURLToPath(new URL("..", import.meta.url)));
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const budgets = opt("--budgets", "8000,16000,32000");
const outDir = opt("--out", mkdtempSync(join(tmpdir(), "aic-quality-")));
const useDist = opt("--cli", "bench") === "dist";

requirePath(
  "AIC_BENCH_MIRRORS",
  process.env.AIC_BENCH_MIRRORS,
  "the folder holding <owner>+<name>/repo bare mirrors",
);
requirePath(
  "AIC_BENCH_CACHE",
  process.env.AIC_BENCH_CACHE,
  "a scratch folder for extracted base commits (outside this repo)",
);
const harness = requirePath(
  "AIC_BENCH_HARNESS",
  process.env.AIC_BENCH_HARNESS ?? resolve(repoRoot, "../shared/bench/swebench/harness.py"),
  "swebench/harness.py",
);
const dataset = requirePath(
  "AIC_BENCH_DATASET",
  process.env.AIC_BENCH_DATASET ?? resolve(repoRoot, "../shared/bench/swebench-dev.json"),
  "swebench-dev.json",
);

const cli = useDist ? join(repoRoot, "dist", "cli.js") : await buildBenchCli();
requirePath("compiler CLI", cli, useDist ? "a built dist/ (npm run build)" : "the bench build");
// A fresh AIC_HOME: the first budget of each instance pays for indexing, as a new user would.
const aicHome = mkdtempSync(join(tmpdir(), "aic-quality-home-"));

function runHarness(label, compiler) {
  const out = join(outDir, `${label}.json`);
  const hArgs = [
    harness,
    "run",
    "--dataset",
    dataset,
    "--budgets",
    budgets,
    "--label",
    label,
    "--out",
    out,
    "--compiler",
    compiler,
  ];
  for (const flag of ["--repo", "--limit"]) if (opt(flag)) hArgs.push(flag, opt(flag));
  console.error(`running ${label}...`);
  const r = spawnSync("python3", hArgs, {
    cwd: repoRoot,
    encoding: "utf8",
    env: { ...process.env, AIC_HOME: aicHome },
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.status !== 0) {
    console.error(r.stdout.slice(-4000), r.stderr.slice(-4000));
    console.error(`bench: the harness failed for ${label} (exit ${r.status}).`);
    process.exit(1);
  }
  return JSON.parse(readFileSync(out, "utf8"));
}

const aicCommand = `node ${cli} compile --project {project} --intent-file {intent_file} --budget {budget} --format json`;
const runs = [["aic", runHarness("aic", aicCommand)]];
if (!args.includes("--no-baseline")) runs.push(["bm25-py", runHarness("bm25-py", "bm25-py")]);

const f1 = (x) => (typeof x === "number" ? x.toFixed(1) : "-");
const rows = [];
for (const b of budgets.split(",")) {
  for (const [label, result] of runs) {
    const s = result.summary[b];
    rows.push(
      `| ${label} | ${b} | ${s.n} | ${f1(s["acc@1"])} | ${f1(s["acc@5"])} | ${f1(s["acc@10"])} | ${f1(s.file_recall)} | ${f1(s.all_gold)} | ${f1(s.span_recall)} | ${f1(s.span_recall_per_instance)} | ${s.tokens_used_median} | ${s.wall_p50_s} | ${s.failures} |`,
    );
  }
}
const table = `Dataset: \`${dataset}\`; compiler: \`${aicCommand}\`; raw results in \`${outDir}\`.
Targets (dev): Acc@5 >= 85, AllGold@16k >= 75, SpanRecall@16k >= 70.

| compiler | budget | n | Acc@1 | Acc@5 | Acc@10 | FileRec | AllGold | SpanRec | SpanRecI | TokMed | p50 s | Fail |
|---|---|---|---|---|---|---|---|---|---|---|---|---|
${rows.join("\n")}
`;
console.log(table);
const file = recordRun(
  "Quality (SWE-bench dev)",
  `node bench/quality.mjs ${args.join(" ")}`.trim(),
  table,
);
console.log(`recorded in ${file}`);
