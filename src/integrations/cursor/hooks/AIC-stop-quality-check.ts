/**
 * stop: ESLint and `tsc --noEmit` from the project's own node_modules/.bin on the files edited in
 * this conversation. Errors → a `followup_message` that lists them (Cursor submits it; hooks.json
 * caps the loop at 5). Clean, nothing edited, or no tools → `{}`.
 */
import { readEditedFiles } from "../../shared/edited-files.js";
import { num } from "../../shared/payload.js";
import { runHook } from "../../shared/run-hook.js";
import { checkEditedFiles, followupMessage } from "../quality-check.js";

/** Same cap as hooks.json's loop_limit, for Cursor versions that do not enforce it. */
const LOOP_LIMIT = 5;

void runHook({
  name: "AIC-stop-quality-check",
  neutral: {},
  async handle(ctx) {
    if ((num(ctx.payload.loop_count) ?? 0) >= LOOP_LIMIT) return {};
    const edited = readEditedFiles(ctx.convDir);
    if (edited.length === 0) return {};
    const result = await checkEditedFiles(ctx.projectRoot, edited);
    for (const problem of result.problems) ctx.reportError("quality check", problem);
    const message = followupMessage(result.findings);
    return message ? { followup_message: message } : {};
  },
});
