#!/usr/bin/env node
/** The `aic` command. Each subcommand lives in its own module under src/cli/. */
import { Command } from "commander";
import { readFileSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
};

const program = new Command()
  .name("aic")
  .description("Agent Input Compiler: compiles the context an AI coding agent needs for an intent")
  .version(pkg.version)
  .showHelpAfterError();

// Register subcommands here, one line each (keep alphabetical).

await program.parseAsync(process.argv);
