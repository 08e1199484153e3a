/** sessionStart: the project's critical reminders and the conversation id, as additional_context. */
import { appendSessionModel } from "../../../shared/project-logs.js";
import { runHook } from "../../shared/run-hook.js";
import { ARCHITECT_RULE, readCriticalReminders } from "../architect-rules.js";
import { validModelId } from "../subagent-model.js";

void runHook({
  name: "AIC-session-init",
  neutral: {},
  handle(ctx) {
    const model = validModelId(ctx.payload.model);
    if (model) {
      ctx.attempt("append session model", () => {
        appendSessionModel(ctx.projectRoot, {
          conversationId: ctx.conversationId,
          model,
          source: "sessionStart",
        });
      });
    }
    const lines: string[] = [];
    const reminders = readCriticalReminders(ctx.projectRoot);
    if (reminders.length) {
      lines.push(`Critical reminders (from ${ARCHITECT_RULE}):`, ...reminders.map((r) => `- ${r}`));
    }
    if (ctx.conversationId)
      lines.push(...(lines.length ? [""] : []), `AIC_CONVERSATION_ID=${ctx.conversationId}`);
    return lines.length ? { additional_context: lines.join("\n") } : {};
  },
});
