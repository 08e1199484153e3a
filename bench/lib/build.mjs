/**
 * Bundles the `aic compile` entry and the compiler library into node_modules/.cache/aic-bench/
 * (dependencies stay external and resolve from the repo's node_modules; linters ignore the
 * folder), so a benchmark measures one fixed build even while dist/ is being rebuilt.
 */
import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const here = dirname(fileURLToPath(import.meta.url));
const OUT = join(here, "..", "..", "node_modules", ".cache", "aic-bench");
const BENCH_CLI = join(OUT, "aic-compile.mjs");
export const BENCH_COMPILER = join(OUT, "compiler.mjs");

const common = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  logLevel: "error",
};

/** Builds the CLI entry and the compiler library; returns the CLI path. */
export async function buildBenchCli() {
  await build({ ...common, entryPoints: [join(here, "compile-entry.ts")], outfile: BENCH_CLI });
  await build({
    ...common,
    entryPoints: [join(here, "..", "..", "src", "compiler", "index.ts")],
    outfile: BENCH_COMPILER,
  });
  // The indexing thread is loaded by URL next to the bundle (as dist/compiler/index-worker.js is).
  await build({
    ...common,
    entryPoints: [join(here, "..", "..", "src", "compiler", "index-worker.ts")],
    outfile: join(OUT, "index-worker.js"),
  });
  return BENCH_CLI;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await buildBenchCli());
