/** aic_compile: the context for the user's request. The tool the model calls first, every time. */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { runCompilation } from "../../service/compilation-service.js";
import { resolveProjectRoot } from "../../service/project-root.js";
import { compilationDeps, type ToolContext } from "../context.js";
import { compileInputSchema } from "../schemas.js";
import { jsonResult, logFailures, textResult } from "../tool-result.js";
import { RECORDS_LOCALLY } from "../annotations.js";

export const COMPILE_DESCRIPTION =
  "Call this FIRST on every user message, before reading files or running other tools. " +
  "Compiles the context you need for the user's request: the relevant files of the project " +
  "(whole, as relevant functions, or as outlines) within a token budget, with secrets redacted. " +
  "Pass the user's message verbatim as intent and the workspace folder as projectRoot. " +
  "Returns the compiled context, then a JSON line of metadata (files selected/total, tokens " +
  "raw/compiled/budget, cache hit, duration, guard findings, conversation id).";

export function registerCompileTool(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    "aic_compile",
    {
      title: "Compile context",
      description: COMPILE_DESCRIPTION,
      inputSchema: compileInputSchema,
      annotations: RECORDS_LOCALLY,
    },
    logFailures("aic_compile", ctx.log, async (args) => {
      if (args.triggerSource !== "subagent_stop") {
        await ctx.bootstrap.run(resolveProjectRoot(args.projectRoot, ctx.homeDir));
      }
      const outcome = await runCompilation(args, compilationDeps(ctx));
      if (outcome.reparented) {
        return jsonResult({ reparented: true, rowsUpdated: outcome.rowsUpdated });
      }
      return textResult(outcome.prompt, `AIC meta: ${JSON.stringify(outcome.meta)}`);
    }),
  );
}
