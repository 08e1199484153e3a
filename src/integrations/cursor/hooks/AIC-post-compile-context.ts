/**
 * postToolUse (MCP): after a successful aic_compile, tell the model to use the compiled context,
 * refresh the gate's markers and remember the intent for the station. `{}` otherwise.
 */
import { recordCompile } from "../../shared/compile-history.js";
import { markGenerationCompiled, markProjectCompiled } from "../../shared/gate-state.js";
import { str } from "../../shared/payload.js";
import { CONFIRMATION, readCompileOutput } from "../compile-output.js";
import { runHook } from "../../shared/run-hook.js";
import { isAicTool, mcpArguments } from "../tool-identity.js";

void runHook({
  name: "AIC-post-compile-context",
  neutral: {},
  handle(ctx) {
    if (!isAicTool(ctx.payload, "aic_compile")) return {};
    const p = ctx.payload;
    const result = readCompileOutput(p.tool_output ?? p.tool_response ?? p.toolOutput);
    if (!result.ok) {
      // The gate stays open (see docs/hooks.md); the failure is what `aic doctor` should show.
      if (result.error) ctx.reportError("aic_compile failed", result.error);
      return {};
    }
    ctx.attempt("record compile", () => {
      markGenerationCompiled(ctx.convDir, ctx.generationId);
      markProjectCompiled(
        ctx.projectRoot,
        { conversationId: ctx.conversationId, generationId: ctx.generationId },
        ctx.env,
      );
      const intent = str(mcpArguments(p).intent);
      if (intent) recordCompile(ctx.convDir, { intent, files: result.files, source: "tool" });
    });
    return { additional_context: CONFIRMATION };
  },
});
