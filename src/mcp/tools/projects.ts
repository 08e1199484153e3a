/** aic_projects: every project AIC has compiled for. */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { projectsReport } from "../../service/diagnostics.js";
import type { ToolContext } from "../context.js";
import { jsonResult, logFailures } from "../tool-result.js";
import { READ_ONLY } from "../annotations.js";

export function registerProjectsTool(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    "aic_projects",
    {
      title: "Known projects",
      description:
        "Call when the user asks which projects AIC knows: each project root with its number of " +
        "compilations, last compilation time and whether the folder still exists.",
      inputSchema: z.object({}).strict(),
      annotations: READ_ONLY,
    },
    logFailures("aic_projects", ctx.log, () => jsonResult({ projects: projectsReport(ctx.db()) })),
  );
}
