/**
 * sessionEnd: removes this conversation's private hook state (and no one else's) and appends one
 * line to `.aic/session-log.jsonl`. No stdout; never blocks.
 */
import { rmSync } from "node:fs";
import { appendSessionLog } from "../../../shared/project-logs.js";
import { num, str } from "../../shared/payload.js";
import { runHook } from "../../shared/run-hook.js";

void runHook({
  name: "AIC-session-end",
  neutral: null,
  handle(ctx) {
    const p = ctx.payload;
    // Without an id we cannot tell this session's state from another's: leave it to the sweep.
    if (ctx.conversationId) {
      ctx.attempt("remove session state", () =>
        rmSync(ctx.convDir, { recursive: true, force: true }),
      );
    }
    appendSessionLog(ctx.projectRoot, {
      sessionId: str(p.session_id) ?? ctx.conversationId ?? null,
      conversationId: ctx.conversationId ?? null,
      reason: str(p.reason) ?? null,
      durationMs: num(p.duration_ms) ?? null,
      finalStatus: str(p.final_status) ?? null,
      isBackgroundAgent: typeof p.is_background_agent === "boolean" ? p.is_background_agent : null,
    });
    return null;
  },
});
