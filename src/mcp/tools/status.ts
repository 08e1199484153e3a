/** aic_status: what AIC did over the last N days. */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { statusReport } from "../../service/diagnostics.js";
import { optionalProjectRoot, type ToolContext } from "../context.js";
import { projectRootField } from "../schemas.js";
import { jsonResult, logFailures } from "../tool-result.js";
import { READ_ONLY } from "../annotations.js";

export function registerStatusTool(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    "aic_status",
    {
      title: "AIC status",
      description:
        "Call when the user asks how AIC is doing: compilations, token reduction (raw vs compiled), " +
        "cache hit rate, median duration and guard findings over the last `days` days (default 7), " +
        "for one project (projectRoot) or all projects.",
      inputSchema: z
        .object({
          projectRoot: projectRootField.optional(),
          days: z.number().positive().max(3650).optional().describe("Window in days (default 7)."),
        })
        .strict(),
      annotations: READ_ONLY,
    },
    logFailures("aic_status", ctx.log, (args) =>
      jsonResult(
        statusReport(ctx.db(), {
          ...(args.days !== undefined ? { days: args.days } : {}),
          projectRoot: optionalProjectRoot(ctx, args.projectRoot),
        }),
      ),
    ),
  );
}
