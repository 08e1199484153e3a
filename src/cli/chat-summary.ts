/** `aic chat-summary --conversation ID [--project DIR] [--json]`: one conversation's compilations. */
import type { Command } from "commander";
import { chatSummary, type ChatSummary } from "../service/diagnostics.js";
import { sharedDatabase } from "../store/index.js";
import { action, emit, optionalProjectArg } from "./output/command.js";
import type { Colours } from "./output/colour.js";
import { int, ms, orDash, percent, time } from "./output/format.js";
import { renderReport, renderTable, type Section } from "./output/table.js";

export function renderChatSummary(s: ChatSummary, c: Colours): string {
  const title = `AIC conversation ${s.conversationId}`;
  if (s.compilations === 0) {
    return renderReport(title, "No compilations recorded for this conversation.", [], c);
  }
  const summary =
    `${s.compilations} compilations from ${time(s.firstMs)} to ${time(s.lastMs)}; ` +
    `reduction ${percent(s.reduction)} (${int(s.tokensRaw)} → ${int(s.tokensCompiled)} tokens); ` +
    `cache hits ${percent(s.cacheHitRate)}; median ${ms(s.medianDurationMs)}`;
  const sections: Section[] = [
    {
      title: "Compilations",
      body: renderTable(
        [
          { header: "Time" },
          { header: "Step", align: "right" },
          { header: "Trigger" },
          { header: "Intent", maxWidth: 60 },
          { header: "Files", align: "right" },
          { header: "Tokens", align: "right" },
          { header: "Cache" },
        ],
        s.steps.map((st) => [
          time(st.time),
          orDash(st.stepIndex),
          orDash(st.triggerSource),
          st.intent,
          int(st.filesSelected),
          int(st.tokensCompiled),
          st.cacheHit ? "hit" : "miss",
        ]),
        c,
      ),
    },
  ];
  if (s.topFiles.length) {
    sections.push({
      title: "Most included files",
      body: renderTable(
        [
          { header: "File", maxWidth: 80 },
          { header: "Compilations", align: "right" },
        ],
        s.topFiles.map((f) => [f.path, int(f.compilations)]),
        c,
      ),
    });
  }
  const extra: string[] = [];
  if (s.projectRoots.length) extra.push(`Projects: ${s.projectRoots.join(", ")}`);
  if (s.models.length) extra.push(`Models: ${s.models.join(", ")}`);
  if (s.reparentedFrom.length)
    extra.push(`Subagent conversations merged in: ${s.reparentedFrom.join(", ")}`);
  if (extra.length) sections.push({ body: extra.map((e) => `  ${e}`).join("\n") });
  return renderReport(title, summary, sections, c);
}

export function registerChatSummaryCommand(program: Command): void {
  program
    .command("chat-summary")
    .description("every compilation of one conversation (subagents included)")
    .requiredOption("--conversation <id>", "conversation id")
    .option("--project <dir>", "only this project")
    .option("--json", "print JSON for scripts")
    .action(
      action("chat-summary", (opts: { conversation: string; project?: string; json?: boolean }) => {
        const summary = chatSummary(sharedDatabase(), {
          conversationId: opts.conversation,
          projectRoot: optionalProjectArg(opts.project),
        });
        emit(summary, opts, renderChatSummary);
      }),
    );
}
