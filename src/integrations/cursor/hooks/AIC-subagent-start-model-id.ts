/**
 * A light subagentStart hook (deployed, not registered by default): records the subagent's model
 * in `.aic/session-models.jsonl` without compiling. Register it in place of AIC-subagent-compile
 * to keep model telemetry without the compile. Always allows.
 */
import { appendSessionModel } from "../../../shared/project-logs.js";
import { validId } from "../../shared/ids.js";
import { runHook } from "../../shared/run-hook.js";
import { validModelId } from "../subagent-model.js";

void runHook({
  name: "AIC-subagent-start-model-id",
  neutral: { permission: "allow" },
  handle(ctx) {
    const model = validModelId(ctx.payload.subagent_model);
    if (model) {
      const conversationId = validId(ctx.payload.parent_conversation_id) ?? ctx.conversationId;
      appendSessionModel(ctx.projectRoot, { conversationId, model, source: "subagentStart" });
    }
    return { permission: "allow" };
  },
});
