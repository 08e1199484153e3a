#!/usr/bin/env node
/** The `aic` command. Each subcommand lives in its own module under src/cli/. */
import { Command } from "commander";
import { readFileSync } from "node:fs";
import { exitQuietlyWhenStdoutCloses } from "./cli/output/closed-pipe.js";

type Register = (program: Command) => void;

/**
 * Subcommand name → the module that registers it. Only the module of the command being run is
 * loaded: importing every command (the MCP SDK, the installer, SQLite, the compiler) cost about
 * 200 ms before `aic compile` did any work, and the daemon path pays that on every call.
 * Help, version and unknown names load them all.
 */
const COMMANDS: Record<string, () => Promise<Register>> = {
  "chat-summary": async () => (await import("./cli/chat-summary.js")).registerChatSummaryCommand,
  compile: async () => (await import("./cli/compile.js")).registerCompileCommand,
  daemon: async () => (await import("./cli/daemon.js")).registerDaemonCommand,
  doctor: async () => (await import("./cli/doctor.js")).registerDoctorCommand,
  inspect: async () => (await import("./cli/inspect.js")).registerInspectCommand,
  install: async () => (await import("./cli/install.js")).registerInstallCommand,
  last: async () => (await import("./cli/last.js")).registerLastCommand,
  projects: async () => (await import("./cli/projects.js")).registerProjectsCommand,
  serve: async () => (await import("./cli/serve.js")).registerServeCommand,
  status: async () => (await import("./cli/status.js")).registerStatusCommand,
  uninstall: async () => (await import("./cli/uninstall.js")).registerUninstallCommand,
  wear: async () => (await import("./cli/wear.js")).registerWearCommands,
  unwear: async () => (await import("./cli/wear.js")).registerWearCommands,
};

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
};

const program = new Command()
  .name("aic")
  .description("Agent Input Compiler: compiles the context an AI coding agent needs for an intent")
  .version(pkg.version)
  .showHelpAfterError();

const requested = process.argv[2];
const loaders =
  requested !== undefined && requested in COMMANDS
    ? [COMMANDS[requested]!]
    : [...new Set(Object.values(COMMANDS))];
const registered = new Set<Register>();
for (const load of loaders) {
  const register = await load();
  if (registered.has(register)) continue; // wear and unwear share one module
  registered.add(register);
  register(program);
}

exitQuietlyWhenStdoutCloses();
await program.parseAsync(process.argv);
