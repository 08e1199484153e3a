/**
 * sessionStart: a broad compiled snapshot of the project for the new session, plus `env` so later
 * hooks know the project and conversation. Answers inside Cursor's 20 s limit or exits silently.
 */
import { recordCompile } from "../../shared/compile-history.js";
import { compileForHook } from "../../shared/compile-for-hook.js";
import { runHook } from "../../shared/run-hook.js";
import { OMITTED_INTENT } from "../intent.js";
import { validModelId } from "../subagent-model.js";

/** Cursor kills sessionStart hooks at 20 s; answer (neutral) with a margin before that. */
export const DEADLINE_MS = 18_000;

void runHook({
  name: "AIC-compile-context",
  neutral: {},
  deadlineMs: DEADLINE_MS,
  async handle(ctx) {
    const result = await compileForHook({
      intent: OMITTED_INTENT,
      projectRoot: ctx.projectRoot,
      editorId: "cursor",
      triggerSource: "session_start",
      ...(ctx.conversationId ? { conversationId: ctx.conversationId } : {}),
      ...(validModelId(ctx.payload.model) ? { modelId: validModelId(ctx.payload.model) } : {}),
    });
    if (result.kind !== "compiled") {
      ctx.reportError("compile", result.kind === "failed" ? result.reason : "unexpected reparent");
      return {};
    }
    ctx.attempt("record compile", () => {
      recordCompile(ctx.convDir, {
        intent: OMITTED_INTENT,
        files: result.files,
        source: "session_start",
      });
    });
    return {
      env: {
        AIC_PROJECT_ROOT: ctx.projectRoot,
        ...(ctx.conversationId ? { AIC_CONVERSATION_ID: ctx.conversationId } : {}),
      },
      additional_context: [
        "AIC compiled this project snapshot for the session (call aic_compile for each task):",
        result.prompt,
      ].join("\n"),
    };
  },
});
