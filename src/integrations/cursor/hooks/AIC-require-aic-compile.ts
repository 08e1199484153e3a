/** preToolUse (every tool, failClosed): the compile gate. See ../compile-gate.ts. */
import { loadProjectConfig } from "../../../config/project-config.js";
import { sweepStaleState } from "../../shared/gate-state.js";
import { runHook } from "../../shared/run-hook.js";
import { ALLOW, bypassActive, decide, denyUnchecked } from "../compile-gate.js";

void runHook({
  name: "AIC-require-aic-compile",
  neutral: ALLOW,
  fallback(reason, projectRoot) {
    try {
      if (bypassActive(loadProjectConfig(projectRoot).config)) return ALLOW;
    } catch {
      // An unreadable config never opens the gate.
    }
    return denyUnchecked(reason, projectRoot);
  },
  async handle(ctx) {
    const config = ctx.config();
    if (bypassActive(config)) return ALLOW;
    ctx.attempt("sweep stale state", () => sweepStaleState(ctx.projectRoot, ctx.env));
    return decide({ ...ctx, windowSecs: config.compileRecencyWindowSecs });
  },
});
