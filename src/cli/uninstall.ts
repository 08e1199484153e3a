/** `aic uninstall cursor [--project DIR] [--user] [--keep-project-artifacts] [--force]` */
import type { Command } from "commander";
import { resolve } from "node:path";
import { uninstallCursor } from "../install/uninstall-cursor.js";
import { EDITOR_ARGUMENT, printList, requireCursor, withFailureReport } from "./install-output.js";

export function registerUninstallCommand(program: Command): void {
  program
    .command("uninstall")
    .description(
      "remove what `aic install` added, restoring the original files when nothing drifted",
    )
    .argument(EDITOR_ARGUMENT, "the editor to uninstall from (only: cursor)")
    .option("--project <dir>", "the project folder", process.cwd())
    .option("--user", "uninstall the user-scope hooks from ~/.cursor")
    .option("--keep-project-artifacts", "keep aic.config.json and .aic/ (logs, station file)")
    .option("--force", "uninstall even when aic.config.json has devMode: true")
    .action(
      async (
        editor: string,
        opts: { project: string; user?: boolean; keepProjectArtifacts?: boolean; force?: boolean },
      ) => {
        await withFailureReport("uninstall", async () => {
          requireCursor(editor, "uninstall");
          const result = await uninstallCursor({ ...opts, projectRoot: resolve(opts.project) });
          switch (result.status) {
            case "refused":
            case "skipped":
              printList(
                process.stderr,
                `aic uninstall: ${result.status}, nothing was changed:`,
                result.refusals,
              );
              process.exitCode = 1;
              return;
            case "not-installed":
              console.log(
                `nothing to uninstall: AIC has no install receipts for ${opts.user ? "~/.cursor" : resolve(opts.project)}`,
              );
              return;
            case "restored":
              console.log("restored");
              for (const note of result.notes) console.log(note);
              return;
            case "removed":
              console.log(
                "uninstalled AIC; some files had changed since install, so from those only " +
                  "AIC's parts were taken out:",
              );
              printList(process.stdout, "done:", result.notes);
              printList(process.stdout, "drifted (kept):", result.drifted);
          }
        });
      },
    );
}
