/** aic_chat_summary: everything AIC compiled for one conversation. */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { chatSummary } from "../../service/diagnostics.js";
import { optionalProjectRoot, type ToolContext } from "../context.js";
import { projectRootField } from "../schemas.js";
import { jsonResult, logFailures } from "../tool-result.js";
import { READ_ONLY } from "../annotations.js";

export function registerChatSummaryTool(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    "aic_chat_summary",
    {
      title: "Conversation summary",
      description:
        "Call when the user asks what AIC did in this chat: every compilation of the conversation " +
        "(subagents included) with intents, files, tokens, reduction and cache hits.",
      inputSchema: z
        .object({
          conversationId: z.string().min(1).max(256).describe("The conversation to summarise."),
          projectRoot: projectRootField.optional(),
        })
        .strict(),
      annotations: READ_ONLY,
    },
    logFailures("aic_chat_summary", ctx.log, (args) =>
      jsonResult(
        chatSummary(ctx.db(), {
          conversationId: args.conversationId,
          projectRoot: optionalProjectRoot(ctx, args.projectRoot),
        }),
      ),
    ),
  );
}
