/**
 * Bundles the `aic compile` entry and the compiler library into bench/.build/ (node_modules stay
 * external), so a benchmark measures one fixed build even while dist/ is being rebuilt.
 */
import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const here = dirname(fileURLToPath(import.meta.url));
export const BENCH_CLI = join(here, "..", ".build", "aic-compile.mjs");
export const BENCH_COMPILER = join(here, "..", ".build", "compiler.mjs");

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
    outfile: join(here, "..", ".build", "index-worker.js"),
  });
  return BENCH_CLI;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await buildBenchCli());
