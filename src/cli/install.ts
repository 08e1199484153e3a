/** `aic install cursor [--project DIR] [--user] [--global-mcp] [--force]` */
import type { Command } from "commander";
import { resolve } from "node:path";
import { installCursor } from "../install/install-cursor.js";
import { EDITOR_ARGUMENT, requireCursor, printList, withFailureReport } from "./install-output.js";

export function registerInstallCommand(program: Command): void {
  program
    .command("install")
    .description("install AIC's hooks, trigger rule and MCP server registration into an editor")
    .argument(EDITOR_ARGUMENT, "the editor to install into (only: cursor)")
    .option("--project <dir>", "the project folder", process.cwd())
    .option("--user", "install the hooks into ~/.cursor/hooks.json with absolute commands")
    .option(
      "--global-mcp",
      "register the MCP server in ~/.cursor/mcp.json instead of the project's",
    )
    .option("--dry-run", "show what would change and write nothing")
    .option(
      "--force",
      "replace a user-edited rule, foreign files in AIC's names or a foreign aic MCP server",
    )
    .action(
      async (
        editor: string,
        opts: {
          project: string;
          user?: boolean;
          globalMcp?: boolean;
          force?: boolean;
          dryRun?: boolean;
        },
      ) => {
        await withFailureReport("install", async () => {
          requireCursor(editor, "install");
          const result = await installCursor({ ...opts, projectRoot: resolve(opts.project) });
          const where = result.targets?.root ?? opts.project;
          if (result.status === "refused") {
            printList(
              process.stderr,
              `aic install: refused, nothing was written:`,
              result.refusals,
            );
            process.exitCode = 1;
            return;
          }
          if (result.status === "would-install") {
            printList(process.stdout, `dry run, nothing written; install would:`, result.notes);
          } else if (result.status === "unchanged") {
            console.log(`nothing changed: AIC is already installed for Cursor in ${where}`);
          } else {
            printList(process.stdout, `installed AIC for Cursor in ${where}:`, result.notes);
            console.log(
              "next: reload the Cursor window so it reads the new hooks and MCP server; " +
                "`aic doctor` checks the installation",
            );
          }
          printList(process.stdout, "left alone:", result.kept);
        });
      },
    );
}
