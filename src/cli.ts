#!/usr/bin/env node
/** The `aic` command. Each subcommand lives in its own module under src/cli/. */
import { Command } from "commander";
import { readFileSync } from "node:fs";
import { registerChatSummaryCommand } from "./cli/chat-summary.js";
import { registerCompileCommand } from "./cli/compile.js";
import { registerDaemonCommand } from "./cli/daemon.js";
import { registerDoctorCommand } from "./cli/doctor.js";
import { registerInspectCommand } from "./cli/inspect.js";
import { registerInstallCommand } from "./cli/install.js";
import { registerLastCommand } from "./cli/last.js";
import { exitQuietlyWhenStdoutCloses } from "./cli/output/closed-pipe.js";
import { registerProjectsCommand } from "./cli/projects.js";
import { registerServeCommand } from "./cli/serve.js";
import { registerStatusCommand } from "./cli/status.js";
import { registerUninstallCommand } from "./cli/uninstall.js";
import { registerWearCommands } from "./cli/wear.js";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
};

const program = new Command()
  .name("aic")
  .description("Agent Input Compiler: compiles the context an AI coding agent needs for an intent")
  .version(pkg.version)
  .showHelpAfterError();

// Register subcommands here, one line each (keep alphabetical).
registerChatSummaryCommand(program);
registerCompileCommand(program);
registerDaemonCommand(program);
registerDoctorCommand(program);
registerInspectCommand(program);
registerInstallCommand(program);
registerLastCommand(program);
registerProjectsCommand(program);
registerServeCommand(program);
registerStatusCommand(program);
registerUninstallCommand(program);
registerWearCommands(program);

exitQuietlyWhenStdoutCloses();
await program.parseAsync(process.argv);
