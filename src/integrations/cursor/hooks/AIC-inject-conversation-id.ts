/**
 * preToolUse (MCP): completes AIC's own tool calls with what only the hook knows. aic_compile gets
 * editorId "cursor", the conversation id, the model id, the project root when missing, and the
 * user's prewarmed prompt in place of a weak intent; aic_chat_summary gets the conversation id.
 * Every other tool passes untouched.
 */
import { readPrompt } from "../../shared/gate-state.js";
import { str } from "../../shared/payload.js";
import { runHook, type HookContext, type HookOutput } from "../../shared/run-hook.js";
import { isWeakIntent, promptAsIntent } from "../intent.js";
import { validModelId } from "../subagent-model.js";
import { mcpArguments, mcpToolName, withMcpArguments } from "../tool-identity.js";

function compileArguments(ctx: HookContext): Record<string, unknown> {
  const input = mcpArguments(ctx.payload);
  const updated: Record<string, unknown> = { ...input, editorId: "cursor" };
  if (ctx.conversationId) updated.conversationId = ctx.conversationId;
  const model = validModelId(ctx.payload.model);
  if (model && !validModelId(input.modelId)) updated.modelId = model;
  if (!str(input.projectRoot)) updated.projectRoot = ctx.projectRoot;
  if (isWeakIntent(input.intent)) {
    const prompt = readPrompt(ctx.convDir, ctx.generationId);
    if (prompt) updated.intent = promptAsIntent(prompt);
  }
  return updated;
}

void runHook({
  name: "AIC-inject-conversation-id",
  neutral: { permission: "allow" },
  handle(ctx): HookOutput {
    const tool = mcpToolName(ctx.payload);
    const p = ctx.payload;
    if (tool === "aic_compile")
      return { permission: "allow", updated_input: withMcpArguments(p, compileArguments(ctx)) };
    if (tool === "aic_chat_summary" && ctx.conversationId) {
      const args = { ...mcpArguments(p), conversationId: ctx.conversationId };
      return { permission: "allow", updated_input: withMcpArguments(p, args) };
    }
    return { permission: "allow" };
  },
});
