/** `aic status [--days N] [--project DIR] [--json]`: what AIC did over a time window. */
import type { Command } from "commander";
import { statusReport, type StatusReport } from "../service/diagnostics.js";
import { sharedDatabase } from "../store/index.js";
import { action, emit, positiveNumber, optionalProjectArg } from "./output/command.js";
import type { Colours } from "./output/colour.js";
import { countRows, int, ms, percent, time } from "./output/format.js";
import { renderReport, renderTable, type Section } from "./output/table.js";

export function renderStatus(r: StatusReport, c: Colours): string {
  const scope = r.projectRoot ? r.projectRoot : "all projects";
  const title = `AIC status: last ${r.days} day${r.days === 1 ? "" : "s"}, ${scope}`;
  if (r.compilations === 0) {
    return renderReport(title, "No compilations in this window.", [], c);
  }
  const summary =
    `${int(r.compilations)} compilations in ${r.projects} project(s), ${r.conversations} conversation(s); ` +
    `reduction ${percent(r.reduction)}; cache hits ${percent(r.cacheHitRate)}; median ${ms(r.medianDurationMs)}`;
  const overview = renderTable(
    [{ header: "Measure" }, { header: "Value", align: "right" }],
    [
      ["Compilations", int(r.compilations)],
      ["Raw tokens (candidates)", int(r.tokensRaw)],
      ["Compiled tokens (sent)", int(r.tokensCompiled)],
      ["Reduction (1 - compiled/raw)", percent(r.reduction)],
      ["Cache hits", `${int(r.cacheHits)} (${percent(r.cacheHitRate)})`],
      ["Median duration", ms(r.medianDurationMs)],
      ["Last compilation", time(r.lastCompilationMs)],
    ],
    c,
  );
  const sections: Section[] = [{ body: overview }];
  const breakdown = (title: string, header: string, counts: Record<string, number>) => {
    if (Object.keys(counts).length === 0) return;
    sections.push({
      title,
      body: renderTable([{ header }, { header: "Count", align: "right" }], countRows(counts), c),
    });
  };
  if (!r.projectRoot) breakdown("By project", "Project", r.byProject);
  breakdown("By trigger", "Trigger", r.byTrigger);
  breakdown("By editor", "Editor", r.byEditor);
  breakdown("By task class", "Task class", r.byTaskClass);
  breakdown("Guard findings", "Type", r.guardFindings);
  return renderReport(title, summary, sections, c);
}

export function registerStatusCommand(program: Command): void {
  program
    .command("status")
    .description("compilations, token reduction, cache hits and guard findings over recent days")
    .option("--days <n>", "window in days (default 7)", positiveNumber("days"))
    .option("--project <dir>", "only this project")
    .option("--json", "print JSON for scripts")
    .action(
      action("status", (opts: { days?: number; project?: string; json?: boolean }) => {
        const report = statusReport(sharedDatabase(), {
          ...(opts.days !== undefined ? { days: opts.days } : {}),
          projectRoot: optionalProjectArg(opts.project),
        });
        emit(report, opts, renderStatus);
      }),
    );
}
