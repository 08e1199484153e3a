/** beforeShellExecution (git): denies git commands that skip git hooks. See ../git-no-verify.ts. */
import { str, toolInput } from "../../shared/payload.js";
import { runHook } from "../../shared/run-hook.js";
import { checkCommand } from "../git-no-verify.js";

void runHook({
  name: "AIC-block-no-verify",
  neutral: { permission: "allow" },
  handle(ctx) {
    const command = str(ctx.payload.command) ?? str(toolInput(ctx.payload).command);
    if (!command) return { permission: "allow" };
    const verdict = checkCommand(command);
    if (!verdict.blocked) return { permission: "allow" };
    return {
      permission: "deny",
      user_message: `AIC blocked a git command that skips the project's git hooks: it ${verdict.reason}.`,
      agent_message: [
        `Blocked: this git command ${verdict.reason}. The project's git hooks (formatting, lint,`,
        "tests) must run. Run the command without the bypass; if a hook fails, fix what it reports.",
      ].join(" "),
    };
  },
});
