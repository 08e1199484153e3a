/** `aic projects [--json]`: every project AIC has compiled for. */
import type { Command } from "commander";
import { projectsReport, type ProjectSummary } from "../service/diagnostics.js";
import { sharedDatabase } from "../store/index.js";
import { action, emit } from "./output/command.js";
import type { Colours } from "./output/colour.js";
import { int, time } from "./output/format.js";
import { renderReport, renderTable } from "./output/table.js";

export function renderProjects(projects: ProjectSummary[], c: Colours): string {
  if (projects.length === 0) return renderReport("AIC projects", "No project compiled yet.", [], c);
  const missing = projects.filter((p) => !p.exists).length;
  const total = projects.reduce((a, p) => a + p.compilations, 0);
  const summary =
    `${projects.length} project(s), ${int(total)} compilations` +
    (missing ? `; ${missing} folder(s) no longer exist` : "");
  const table = renderTable(
    [
      { header: "Project" },
      { header: "Compilations", align: "right" },
      { header: "Last compilation" },
      { header: "Folder" },
    ],
    projects.map((p) => [
      p.root,
      int(p.compilations),
      time(p.lastCompilationMs),
      p.exists ? "ok" : c.yellow("missing"),
    ]),
    c,
  );
  return renderReport("AIC projects", summary, [{ body: table }], c);
}

export function registerProjectsCommand(program: Command): void {
  program
    .command("projects")
    .description("every project AIC has compiled for")
    .option("--json", "print JSON for scripts")
    .action(
      action("projects", (opts: { json?: boolean }) => {
        emit(projectsReport(sharedDatabase()), opts, renderProjects);
      }),
    );
}
