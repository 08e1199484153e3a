/**
 * afterFileEdit: records the edited file(s) for the stop hook's quality check. Cursor's payload
 * shape varies by version, so every known field is read. Always answers `{}`.
 */
import { recordEditedFiles } from "../../shared/edited-files.js";
import { editedPaths } from "../edit-payload.js";
import { runHook } from "../../shared/run-hook.js";

void runHook({
  name: "AIC-after-file-edit-tracker",
  neutral: {},
  handle(ctx) {
    recordEditedFiles(ctx.convDir, ctx.projectRoot, editedPaths(ctx.payload));
    return {};
  },
});
