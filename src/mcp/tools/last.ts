/** aic_last: the most recent compilation and the prompt it produced. */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { lastReport } from "../../service/diagnostics.js";
import { optionalProjectRoot, type ToolContext } from "../context.js";
import { projectRootField } from "../schemas.js";
import { jsonResult, logFailures } from "../tool-result.js";
import { READ_ONLY } from "../annotations.js";

export function registerLastTool(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    "aic_last",
    {
      title: "Last compilation",
      description:
        "Call when the user asks what AIC sent last: the most recent compilation (for projectRoot, " +
        "or any project) with its files, tokens and the compiled prompt.",
      inputSchema: z.object({ projectRoot: projectRootField.optional() }).strict(),
      annotations: READ_ONLY,
    },
    logFailures("aic_last", ctx.log, (args) =>
      jsonResult(
        lastReport(ctx.db(), { projectRoot: optionalProjectRoot(ctx, args.projectRoot) }) ?? {
          message: "no compilation recorded yet",
        },
      ),
    ),
  );
}
