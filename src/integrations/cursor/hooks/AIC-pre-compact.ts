/**
 * preCompact: writes the station (.aic/STATION.md and friends, see ../station.ts) and tells the
 * agent to read it after the compaction. Observational: it cannot block.
 */
import { recentCompiles } from "../../shared/compile-history.js";
import { readEditedFiles } from "../../shared/edited-files.js";
import { str } from "../../shared/payload.js";
import { runHook } from "../../shared/run-hook.js";
import { SYNTHETIC_FLAG, classifyPreCompact, hostUsage, writeStation } from "../station.js";

void runHook({
  name: "AIC-pre-compact",
  neutral: {},
  acceptForeign: (argv) => argv.includes(SYNTHETIC_FLAG),
  handle(ctx) {
    const eventClass = classifyPreCompact(ctx.payload, ctx.argv);
    writeStation(
      {
        projectRoot: ctx.projectRoot,
        conversationId: ctx.conversationId,
        generationId: ctx.generationId,
        eventClass,
        trigger: str(ctx.payload.trigger),
        usage: hostUsage(ctx.payload),
        compiles: recentCompiles(ctx.convDir),
        editedFiles: readEditedFiles(ctx.convDir),
        now: new Date(),
      },
      __filename,
    );
    return {
      user_message: [
        `AIC saved a station before compaction (event_class=${eventClass}).`,
        `Read .aic/STATION.md to resume conversation ${ctx.conversationId ?? "(unknown)"},`,
        "then call aic_compile with your current intent.",
      ].join(" "),
    };
  },
});
