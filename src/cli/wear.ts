/**
 * `aic wear` / `aic unwear` (the station seed's names): wear is `aic install cursor` that insists
 * on a git work tree; unwear puts the pre-wear snapshots back only when every file is exactly as
 * wear left it, and otherwise changes nothing, says what differs and keeps the snapshots.
 */
import type { Command } from "commander";
import { resolve } from "node:path";
import { installCursor } from "../install/install-cursor.js";
import { uninstallCursor } from "../install/uninstall-cursor.js";
import { printList, withFailureReport } from "./install-output.js";

export function registerWearCommands(program: Command): void {
  program
    .command("wear")
    .description(
      "install AIC into the Cursor project of a git work tree (snapshots kept for unwear)",
    )
    .option("--project <dir>", "the project folder", process.cwd())
    .action(async (opts: { project: string }) => {
      await withFailureReport("wear", async () => {
        const result = await installCursor({
          projectRoot: resolve(opts.project),
          requireGit: true,
        });
        if (result.status === "refused") {
          printList(process.stderr, "aic wear: refused, nothing was written:", result.refusals);
          process.exitCode = 1;
          return;
        }
        console.log(result.status === "unchanged" ? "nothing changed: already worn" : "worn");
        printList(process.stdout, "left alone:", result.kept);
      });
    });
  program
    .command("unwear")
    .description("restore the pre-wear bytes exactly, or change nothing and say what differs")
    .option("--project <dir>", "the project folder", process.cwd())
    .option("--force", "unwear even when aic.config.json has devMode: true")
    .action(async (opts: { project: string; force?: boolean }) => {
      await withFailureReport("unwear", async () => {
        const result = await uninstallCursor({
          projectRoot: resolve(opts.project),
          force: opts.force,
          exactOnly: true,
        });
        if (result.status === "restored") {
          console.log("restored");
          for (const note of result.notes) console.log(note);
        } else if (result.status === "not-installed") {
          console.log("nothing to unwear: no snapshots for this project");
        } else {
          printList(process.stderr, `aic unwear: ${result.status}:`, result.refusals);
          process.exitCode = 1;
        }
      });
    });
}
