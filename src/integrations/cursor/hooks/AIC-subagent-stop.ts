/**
 * subagentStop: moves the subagent's compilation_log rows to the parent conversation (a reparent
 * through the compilation service, no compile). Always answers `{}`.
 */
import { compileForHook } from "../../shared/compile-for-hook.js";
import { idFromTranscriptPath, validId } from "../../shared/ids.js";
import { runHook } from "../../shared/run-hook.js";

void runHook({
  name: "AIC-subagent-stop",
  neutral: {},
  deadlineMs: 15_000,
  async handle(ctx) {
    const p = ctx.payload;
    const parent =
      validId(p.conversation_id) ?? validId(p.parent_conversation_id) ?? ctx.conversationId;
    const child = idFromTranscriptPath(p.agent_transcript_path);
    if (!parent || !child || parent === child) return {};
    const result = await compileForHook({
      intent: "reparent subagent compilations",
      projectRoot: ctx.projectRoot,
      editorId: "cursor",
      triggerSource: "subagent_stop",
      conversationId: parent,
      reparentFromConversationId: child,
    });
    if (result.kind === "failed") ctx.reportError("reparent", result.reason);
    return {};
  },
});
