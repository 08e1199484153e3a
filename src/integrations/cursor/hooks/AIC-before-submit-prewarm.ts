/**
 * beforeSubmitPrompt: always `{"continue": true}`. Saves the prompt privately for the compile
 * gate's deny message and logs it to `.aic/prompt-log.jsonl` (every prompt, any characters).
 * Submitting a prompt never opens the gate.
 */
import { appendPromptLog } from "../../../shared/project-logs.js";
import { savePrompt } from "../../shared/gate-state.js";
import { runHook } from "../../shared/run-hook.js";
import { validModelId } from "../subagent-model.js";

void runHook({
  name: "AIC-before-submit-prewarm",
  neutral: { continue: true },
  handle(ctx) {
    const prompt = typeof ctx.payload.prompt === "string" ? ctx.payload.prompt : "";
    if (prompt.trim() === "") return { continue: true };
    ctx.attempt("save prompt", () => savePrompt(ctx.convDir, ctx.generationId, prompt));
    ctx.attempt("append prompt log", () => {
      appendPromptLog(ctx.projectRoot, {
        conversationId: ctx.conversationId,
        generationId: ctx.generationId,
        prompt,
        ...(validModelId(ctx.payload.model) ? { model: validModelId(ctx.payload.model) } : {}),
        source: "cursor",
      });
    });
    return { continue: true };
  },
});
