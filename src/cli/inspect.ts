/**
 * `aic inspect --project DIR --intent TEXT [--budget N] [--json]`: the selection trace of a
 * compilation (why each file was picked, cut down or dropped), recording nothing.
 */
import type { Command } from "commander";
import { inspectCompilation, type InspectOutcome } from "../service/compilation-service.js";
import { action, emit, positiveNumber, projectArg } from "./output/command.js";
import type { Colours } from "./output/colour.js";
import { int, ms, orDash } from "./output/format.js";
import { renderReport, renderTable, type Section } from "./output/table.js";

interface TraceShape {
  ranking?: { path: string; score: number; parts?: Record<string, number> }[];
  selection?: { path: string; tier: string; tokens: number; reason?: string }[];
  dropped?: { path: string; reason: string }[];
  funnel?: Record<string, number>;
}

function topParts(parts: Record<string, number> | undefined): string {
  return Object.entries(parts ?? {})
    .filter(([, v]) => v !== 0)
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))
    .slice(0, 4)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
}

export function renderInspect(out: InspectOutcome, c: Colours): string {
  const { context } = out;
  const trace = context.trace as TraceShape;
  const summary =
    `${context.meta.filesSelected} of ${context.meta.filesTotal} files, ` +
    `${int(context.tokens.used)} of ${int(out.budget)} budget tokens, compiled in ${ms(context.durationMs)}; ` +
    `task class ${context.meta.taskClass}; nothing recorded`;
  const selection = trace.selection ?? context.files.map((f) => ({ ...f, reason: undefined }));
  const sections: Section[] = [
    { title: "Intent", body: `  ${out.intent.replace(/\n/g, "\n  ")}` },
    {
      title: "Selected (prompt order)",
      body: renderTable(
        [
          { header: "File", maxWidth: 70 },
          { header: "Tier" },
          { header: "Tokens", align: "right" },
          { header: "Why", maxWidth: 60 },
        ],
        selection.map((s) => [s.path, s.tier, int(s.tokens), orDash(s.reason)]),
        c,
      ),
    },
  ];
  if (trace.ranking?.length) {
    sections.push({
      title: "Ranking (top 20)",
      body: renderTable(
        [
          { header: "#", align: "right" },
          { header: "File", maxWidth: 70 },
          { header: "Score", align: "right" },
          { header: "Main score parts", maxWidth: 60 },
        ],
        trace.ranking
          .slice(0, 20)
          .map((r, i) => [String(i + 1), r.path, String(r.score), topParts(r.parts)]),
        c,
      ),
    });
  }
  if (trace.dropped?.length) {
    sections.push({
      title: "Never included",
      body: renderTable(
        [
          { header: "File", maxWidth: 70 },
          { header: "Reason", maxWidth: 60 },
        ],
        trace.dropped.map((d) => [d.path, d.reason]),
        c,
      ),
    });
  }
  if (trace.funnel) {
    sections.push({
      title: "Token funnel",
      body: renderTable(
        [{ header: "Stage" }, { header: "Tokens", align: "right" }],
        Object.entries(trace.funnel).map(([k, v]) => [k, int(v)]),
        c,
      ),
    });
  }
  if (out.warnings.length) {
    sections.push({
      title: "Warnings",
      body: out.warnings.map((w) => `  ${c.yellow(w)}`).join("\n"),
    });
  }
  return renderReport(`AIC inspect: ${out.projectRoot}`, summary, sections, c);
}

export function registerInspectCommand(program: Command): void {
  program
    .command("inspect")
    .description("show why each file was selected or left out for an intent (records nothing)")
    .requiredOption("--project <dir>", "project folder")
    .requiredOption("--intent <text>", "the request to compile for")
    .option(
      "--budget <n>",
      "token budget (default: aic.config.json budget, else 8000)",
      positiveNumber("budget", true),
    )
    .option("--json", "print the full trace as JSON")
    .action(
      action(
        "inspect",
        async (opts: { project: string; intent: string; budget?: number; json?: boolean }) => {
          const out = await inspectCompilation({
            projectRoot: projectArg(opts.project),
            intent: opts.intent,
            ...(opts.budget !== undefined ? { budget: opts.budget } : {}),
          });
          emit(out, opts, renderInspect);
        },
      ),
    );
}
