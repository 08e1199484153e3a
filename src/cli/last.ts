/** `aic last [--project DIR] [--prompt] [--json]`: the most recent compilation. */
import type { Command } from "commander";
import { lastReport, type LastReport } from "../service/diagnostics.js";
import { sharedDatabase } from "../store/index.js";
import { action, emit, optionalProjectArg } from "./output/command.js";
import type { Colours } from "./output/colour.js";
import { int, ms, orDash, percent, time } from "./output/format.js";
import { renderReport, renderTable } from "./output/table.js";

export function renderLast(r: LastReport | null, c: Colours, withPrompt = false): string {
  if (!r) return renderReport("AIC last compilation", "No compilation recorded yet.", [], c);
  const l = r.compilation;
  const summary =
    `${time(l.createdMs)}: ${l.filesSelected} of ${l.filesTotal} files, ` +
    `${int(l.tokensCompiled)} of ${int(l.tokenBudget)} budget tokens (reduction ${percent(l.reduction)}), ` +
    `${l.cacheHit ? "cache hit" : "compiled"} in ${ms(l.durationMs)}`;
  const details = renderTable(
    [{ header: "Field" }, { header: "Value", maxWidth: 100 }],
    [
      ["Project", l.projectRoot],
      ["Intent", l.intent],
      [
        "Intent source",
        l.intentGiven === null
          ? l.intentSource
          : `${l.intentSource} (given: ${JSON.stringify(l.intentGiven)})`,
      ],
      ["Task class", orDash(l.taskClass)],
      ["Conversation", orDash(l.conversationId)],
      ["Editor / model", `${orDash(l.editorId)} / ${orDash(l.modelId)}`],
      ["Trigger", orDash(l.triggerSource)],
      ["Raw → compiled tokens", `${int(l.tokensRaw)} → ${int(l.tokensCompiled)}`],
      [
        "Guard findings",
        Object.entries(l.guardCounts)
          .map(([k, n]) => `${k}: ${n}`)
          .join(", ") || "none",
      ],
    ],
    c,
  );
  const files = renderTable(
    [{ header: "File", maxWidth: 80 }, { header: "Tier" }, { header: "Tokens", align: "right" }],
    l.topFiles.map((f) => [f.path, f.tier, int(f.tokens)]),
    c,
  );
  const sections = [{ body: details }, { title: "Top files", body: files }];
  sections.push(
    withPrompt && r.prompt !== null
      ? { title: `Prompt (${r.promptFile})`, body: r.prompt }
      : {
          title: "Prompt",
          body: `  ${r.promptFile}${withPrompt ? " (missing)" : " (--prompt prints it)"}`,
        },
  );
  return renderReport("AIC last compilation", summary, sections, c);
}

export function registerLastCommand(program: Command): void {
  program
    .command("last")
    .description("the most recent compilation: intent, files, tokens, prompt file")
    .option("--project <dir>", "only this project")
    .option("--prompt", "also print the compiled prompt")
    .option("--json", "print JSON for scripts")
    .action(
      action("last", (opts: { project?: string; prompt?: boolean; json?: boolean }) => {
        const report = lastReport(sharedDatabase(), {
          projectRoot: optionalProjectArg(opts.project),
        });
        emit(report, opts, (r, c) => renderLast(r, c, opts.prompt));
      }),
    );
}
