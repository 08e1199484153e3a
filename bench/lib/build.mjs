/** Bundles bench/lib/compile-entry.ts to bench/.build/aic-compile.mjs (node_modules stay external). */
import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const here = dirname(fileURLToPath(import.meta.url));
export const BENCH_CLI = join(here, "..", ".build", "aic-compile.mjs");

export async function buildBenchCli() {
  await build({
    entryPoints: [join(here, "compile-entry.ts")],
    outfile: BENCH_CLI,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "error",
  });
  return BENCH_CLI;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await buildBenchCli());
