/** `aic compile` as a real process, exactly as benchmarks and users run it. */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { pythonProject, tempDir } from "./fixtures.js";

const CLI = resolve("dist/cli.js");

function aic(args: string[], home = tempDir("home"), extraEnv: Record<string, string> = {}) {
  const r = spawnSync(
    process.execPath,
    [CLI, ...(args[0] === "daemon" ? [] : ["compile"]), ...args],
    {
      encoding: "utf8",
      env: {
        ...process.env,
        AIC_HOME: join(home, ".aic"),
        HOME: home,
        AIC_DAEMON: "",
        ...extraEnv,
      },
    },
  );
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, home };
}

describe.runIf(existsSync(CLI))("aic compile (CLI process)", () => {
  it("prints the JSON contract", () => {
    const { root } = pythonProject();
    const before = readdirSync(root).sort();
    const r = aic([
      "--project",
      root,
      "--intent",
      "verify_password fails for unicode",
      "--format",
      "json",
    ]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(out).sort()).toEqual([
      "durationMs",
      "files",
      "prompt",
      "ranking",
      "tokens",
      "trace",
    ]);
    const ranking = out.ranking as string[];
    expect(ranking[0]).toBe("app/auth.py");
    expect(ranking.every((p) => !p.startsWith("/") && !p.includes("\\"))).toBe(true);
    const files = out.files as { path: string; tier: string; tokens: number }[];
    expect(
      files.every((f) => ["full", "regions", "outline", "path"].includes(f.tier) && f.tokens > 0),
    ).toBe(true);
    expect(out.tokens).toMatchObject({ budget: 8000 });
    expect((out.tokens as { used: number }).used).toBeLessThanOrEqual(8000);
    expect(typeof out.durationMs).toBe("number");
    expect((out.prompt as string).startsWith("# Task\n\nverify_password fails for unicode")).toBe(
      true,
    );
    expect(readdirSync(root).sort()).toEqual(before); // no .aic/ or cache in the project
    expect(existsSync(join(r.home, ".aic", "cache"))).toBe(true);
  });

  it("prints the prompt as text by default and reads --intent-file", () => {
    const { root } = pythonProject();
    const intentFile = join(tempDir("intent"), "intent.txt");
    writeFileSync(intentFile, "make_token returns the wrong prefix\n");
    const r = aic(["--project", root, "--intent-file", intentFile, "--budget", "1500"]);
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith("# Task\n\nmake_token returns the wrong prefix\n")).toBe(true);
    expect(r.stdout).toContain("## app/tokens.py");
  });

  it("gives the same answer through a running daemon as in-process", () => {
    const { root } = pythonProject();
    const home = tempDir("home");
    const args = [
      "--project",
      root,
      "--intent",
      "make_token prefix",
      "--budget",
      "1500",
      "--format",
      "json",
    ];
    const local = aic(args, home, { AIC_DAEMON: "off" });
    expect(aic(["daemon", "start"], home).code).toBe(0);
    try {
      const viaDaemon = aic(args, home);
      expect(viaDaemon.code).toBe(0);
      const a = JSON.parse(local.stdout) as { ranking: string[]; prompt: string; files: unknown };
      const b = JSON.parse(viaDaemon.stdout) as typeof a;
      expect(b.ranking).toEqual(a.ranking);
      expect(b.prompt).toBe(a.prompt);
      expect(b.files).toEqual(a.files);
      // A bad request is still a clear local error, not a daemon failure.
      const bad = aic(["--project", join(root, "nope"), "--intent", "x"], home);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/does not exist/);
    } finally {
      aic(["daemon", "stop"], home);
    }
  });

  it("fails clearly with no partial output on bad input", () => {
    const { root } = pythonProject();
    const cases: [string[], RegExp][] = [
      [["--project", join(root, "nope"), "--intent", "x"], /does not exist/],
      [["--project", root, "--intent", ""], /intent is empty/],
      [
        ["--project", root, "--intent", "x", "--budget", "abc"],
        /--budget "abc" is not a positive whole number/,
      ],
      [["--project", root, "--intent", "x", "--budget", "-5"], /not a positive whole number/],
      [["--project", root], /no intent/],
      [["--intent", "x"], /no project/],
      [["--project", root, "--intent", "x", "--intent-file", "f"], /not both/],
      [
        ["--project", root, "--intent-file", join(root, "missing.txt")],
        /cannot read the intent file/,
      ],
      [["--project", root, "--intent", "x", "--format", "xml"], /--format "xml" is not supported/],
    ];
    for (const [args, message] of cases) {
      const r = aic(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(message);
      expect(r.stderr.startsWith("aic compile: ")).toBe(true);
    }
  });
});
