/**
 * Benchmark entry: the `aic compile` command alone, bundled by bench scripts into node_modules/.cache/aic-bench/ so
 * a benchmark run measures a fixed build of the compiler even while dist/ is being rebuilt.
 * Same code path as `node dist/cli.js compile`.
 */
import { Command } from "commander";
import { registerCompileCommand } from "../../src/cli/compile.js";

const program = new Command().name("aic");
registerCompileCommand(program);
await program.parseAsync(process.argv);
