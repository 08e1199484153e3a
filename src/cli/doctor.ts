/** `aic doctor [--project DIR] [--user]`: one line per finding with its fix; exit 1 when broken. */
import type { Command } from "commander";
import { resolve } from "node:path";
import { doctorCursor } from "../install/doctor.js";
import { SEVERITY_LABEL, withFailureReport } from "./install-output.js";

export function registerDoctorCommand(program: Command): void {
  program
    .command("doctor")
    .description(
      "check the Cursor installation, Node, the MCP registration, the daemon and hook errors",
    )
    .option("--project <dir>", "the project folder", process.cwd())
    .option("--user", "check the user-scope install in ~/.cursor")
    .option("--json", 'print {"ok", "findings": [{"severity", "message", "fix"}]} instead of lines')
    .action(async (opts: { project: string; user?: boolean; json?: boolean }) => {
      await withFailureReport("doctor", async () => {
        const findings = await doctorCursor({
          projectRoot: resolve(opts.project),
          user: opts.user,
        });
        const broken = findings.filter((f) => f.severity === "fail").length;
        if (broken > 0) process.exitCode = 1;
        if (opts.json) {
          console.log(JSON.stringify({ ok: broken === 0, findings }, null, 2));
          return;
        }
        for (const f of findings) {
          console.log(`${SEVERITY_LABEL[f.severity]} ${f.message}${f.fix ? ` -> ${f.fix}` : ""}`);
        }
        console.log(broken === 0 ? "no problems found" : `${broken} problem(s) found`);
      });
    });
}
