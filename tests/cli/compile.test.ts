/**
 * `aic compile` refuses folders that are not one project before it scans anything: `/` would
 * walk the whole disk and the home folder every project at once (found by the first-install QA:
 * `--project /` ran for minutes without a word).
 */
import { spawn, spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { CLI, requireBuiltCli } from "../service/built-cli.js";
import { childEnv, makeSandbox } from "../service/fixture-project.js";

/** Runs `aic compile --project <project>` from the sandbox's HOME (so "." is the home folder). */
function compile(project: string) {
  requireBuiltCli();
  const sb = makeSandbox({});
  const r = spawnSync(process.execPath, [CLI, "compile", "--project", project, "--intent", "x"], {
    env: childEnv(sb, { AIC_DAEMON: "off" }),
    cwd: sb.home,
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("aic compile --project", () => {
  it("refuses the filesystem root with a usage error and no output", () => {
    const r = compile("/");
    expect(r.stderr).toMatch(
      /^aic compile: Project folder \/ is the filesystem root; pass the folder of one project/,
    );
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
  });

  it("refuses the home folder itself", () => {
    const r = compile(".");
    expect(r.stderr).toMatch(/^aic compile: Project folder .* is your home folder itself/);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
  });
});

describe("aic compile | head", () => {
  // Red if a reader that stops early (`| head`) made aic die with an EPIPE stack trace and exit 1.
  it("stops quietly with exit 0 when stdout is closed before it writes", async () => {
    requireBuiltCli();
    const sb = makeSandbox();
    const child = spawn(
      process.execPath,
      [CLI, "compile", "--project", sb.project, "--intent", "hashPassword"],
      { env: childEnv(sb, { AIC_DAEMON: "off" }), cwd: sb.home, stdio: ["ignore", "pipe", "pipe"] },
    );
    child.stdout.destroy(); // the reader is gone before the prompt is written
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((done) => child.on("close", done));
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });
});
