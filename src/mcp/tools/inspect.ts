/** aic_inspect: why each file was picked or dropped, without recording anything. */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { inspectCompilation } from "../../service/compilation-service.js";
import { compilationDeps, type ToolContext } from "../context.js";
import { compileInputShape } from "../schemas.js";
import { jsonResult, logFailures } from "../tool-result.js";
import { READ_ONLY } from "../annotations.js";

const inspectInputSchema = z
  .object({
    intent: compileInputShape.intent,
    projectRoot: compileInputShape.projectRoot,
    budget: compileInputShape.budget,
    modelId: compileInputShape.modelId,
    stepIntent: compileInputShape.stepIntent,
    previousFiles: compileInputShape.previousFiles,
    toolOutputs: compileInputShape.toolOutputs,
  })
  .strict();

export function registerInspectTool(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    "aic_inspect",
    {
      title: "Inspect a compilation",
      description:
        "Call when the user asks why AIC included or left out a file, or to debug context quality. " +
        "Runs the same compilation as aic_compile for intent and projectRoot and returns the full " +
        "selection trace (ranking with score parts, tiers, token funnel, guard findings). " +
        "Nothing is cached, logged or written. Do not use it instead of aic_compile.",
      inputSchema: inspectInputSchema,
      annotations: READ_ONLY,
    },
    logFailures("aic_inspect", ctx.log, async (args) => {
      const out = await inspectCompilation(args, compilationDeps(ctx));
      const { prompt: _prompt, ...context } = out.context;
      return jsonResult({ ...out, context });
    }),
  );
}
