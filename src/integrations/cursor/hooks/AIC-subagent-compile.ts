/**
 * subagentStart: a telemetry compile for the subagent's task under the parent conversation (one
 * compilation_log row per subagent). Cursor cannot inject context here; always allows.
 */
import { appendSessionModel } from "../../../shared/project-logs.js";
import { recordCompile } from "../../shared/compile-history.js";
import { compileForHook } from "../../shared/compile-for-hook.js";
import { validId } from "../../shared/ids.js";
import { firstStr } from "../../shared/payload.js";
import { runHook } from "../../shared/run-hook.js";
import { resolveSubagentModel } from "../subagent-model.js";

const ALLOW = { permission: "allow" };
export const DEFAULT_SUBAGENT_INTENT = "provide context for subagent";

void runHook({
  name: "AIC-subagent-compile",
  neutral: ALLOW,
  deadlineMs: 15_000,
  async handle(ctx) {
    const p = ctx.payload;
    const parent = validId(p.parent_conversation_id) ?? ctx.conversationId;
    const intent = (firstStr(p, "task", "prompt") ?? DEFAULT_SUBAGENT_INTENT).slice(0, 200);
    const { model, fromPayload } = resolveSubagentModel(ctx.projectRoot, p.subagent_model, parent);
    if (model && fromPayload) {
      ctx.attempt("append session model", () => {
        appendSessionModel(ctx.projectRoot, {
          conversationId: parent,
          model,
          source: "subagentStart",
        });
      });
    }
    const result = await compileForHook({
      intent,
      projectRoot: ctx.projectRoot,
      editorId: "cursor",
      triggerSource: "subagent_start",
      ...(parent ? { conversationId: parent } : {}),
      ...(model ? { modelId: model } : {}),
    });
    if (result.kind === "failed") ctx.reportError("telemetry compile", result.reason);
    if (result.kind === "compiled") {
      ctx.attempt("record compile", () =>
        recordCompile(ctx.convDir, { intent, files: result.files, source: "subagent_start" }),
      );
    }
    return ALLOW;
  },
});
