/**
 * `aic status|last|chat-summary|projects|inspect` as users run them: the built CLI in a child
 * process, over a database filled by real compilations, HOME and AIC_HOME in a temp folder.
 */
import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { colourEnabled } from "../../src/cli/output/colour.js";
import { runCompilation } from "../../src/service/compilation-service.js";
import { openDatabase } from "../../src/store/index.js";
import { CLI, requireBuiltCli } from "../service/built-cli.js";
import { childEnv, makeSandbox, type Sandbox } from "../service/fixture-project.js";

let sb: Sandbox;

function aic(args: string[], extraEnv: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    env: childEnv(sb, extraEnv),
    cwd: sb.home,
    encoding: "utf8",
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

// In-process compiles must not touch the real ~/.aic either.
const processSandbox = makeSandbox({});
process.env.AIC_HOME = processSandbox.aicHome;
process.env.HOME = processSandbox.home;

beforeAll(async () => {
  requireBuiltCli();
  sb = makeSandbox();
  const db = openDatabase({ path: join(sb.aicHome, "aic.sqlite") });
  const deps = { db: () => db, homeDir: sb.home };
  const base = { projectRoot: sb.project, conversationId: "conv-7", editorId: "cursor" };
  const gate = { ...base, intent: "hashPassword and unicode logins", triggerSource: "tool_gate" };
  await runCompilation({ ...gate, stepIndex: 0 }, deps);
  await runCompilation({ ...gate, stepIndex: 1 }, deps);
  await runCompilation(
    { ...base, intent: "invoiceTotal rounding", stepIndex: 2, triggerSource: "session_start" },
    deps,
  );
  db.close();
});

describe("diagnostics CLI", () => {
  it("aic status: a title, a one-line summary and aligned rows; honest 'reduction'; JSON with --json", () => {
    const text = aic(["status"]);
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.split("\n");
    expect(lines[0]).toBe("AIC status: last 7 days, all projects");
    expect(lines[1]).toMatch(
      /^3 compilations in 1 project\(s\), 1 conversation\(s\); reduction \d+\.\d%; cache hits 33\.3%/,
    );
    expect(text.stdout).not.toMatch(/precision/i);
    // Aligned: the value column of the overview ends at the same column on every row.
    const overview = lines.slice(3, 11).filter((l) => l.trim());
    expect(new Set(overview.map((l) => l.length)).size).toBe(1);
    expect(text.stdout).toMatch(
      /By trigger\n\s+Trigger\s+Count\n\s+tool_gate\s+2\n\s+session_start\s+1/,
    );
    expect(text.stdout).not.toContain("\u001b[");

    const json = JSON.parse(aic(["status", "--json", "--days", "1"]).stdout) as Record<
      string,
      unknown
    >;
    expect(json).toMatchObject({ days: 1, compilations: 3, cacheHits: 1, byEditor: { cursor: 3 } });
  });

  it("aic status refuses a bad --days with a clear message and a non-zero exit", () => {
    const r = aic(["status", "--days", "zero"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/--days must be a positive number/);
    expect(r.stdout).toBe("");
  });

  it("aic last shows the latest compilation, and the prompt with --prompt", () => {
    const r = aic(["last", "--project", sb.project]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split("\n")[0]).toBe("AIC last compilation");
    expect(r.stdout).toMatch(/Intent\s+invoiceTotal rounding/);
    expect(r.stdout).toContain("src/billing/invoice.ts");
    expect(aic(["last", "--prompt"]).stdout).toContain("invoiceTotal rounding");
    const json = JSON.parse(aic(["last", "--json"]).stdout) as {
      compilation: { stepIndex: number };
    };
    expect(json.compilation.stepIndex).toBe(2);
  });

  it("aic chat-summary lists the conversation's compilations in order", () => {
    const r = aic(["chat-summary", "--conversation", "conv-7"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split("\n")[0]).toBe("AIC conversation conv-7");
    const rows = r.stdout.split("\n").filter((l) => /\s(hit|miss)$/.test(l));
    expect(rows.map((l) => l.match(/\s(hit|miss)$/)![1])).toEqual(["miss", "hit", "miss"]);
    expect(aic(["chat-summary"]).stderr).toMatch(/--conversation/);
    expect(aic(["chat-summary", "--conversation", "nope"]).stdout).toMatch(
      /No compilations recorded/,
    );
  });

  it("aic projects lists known projects", () => {
    const r = aic(["projects", "--json"]);
    expect(JSON.parse(r.stdout)).toEqual([
      expect.objectContaining({ root: sb.project, compilations: 3, exists: true }),
    ]);
    expect(aic(["projects"]).stdout).toMatch(/^AIC projects\n1 project\(s\), 3 compilations\n/);
  });

  it("aic inspect shows the selection trace and records nothing", () => {
    const r = aic(["inspect", "--project", sb.project, "--intent", "findUser lookup by name"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^AIC inspect: /);
    expect(r.stdout).toMatch(/Ranking \(top 20\)\n\s+#\s+File\s+Score/);
    expect(r.stdout).toContain("src/db/users.ts");
    const json = JSON.parse(
      aic(["inspect", "--project", sb.project, "--intent", "findUser", "--json"]).stdout,
    ) as {
      context: { trace: { ranking: unknown[] } };
    };
    expect(json.context.trace.ranking.length).toBeGreaterThan(0);
    expect(
      (JSON.parse(aic(["status", "--json"]).stdout) as { compilations: number }).compilations,
    ).toBe(3);
  });

  it("aic inspect shows config warnings, and refuses a broken config naming the key", () => {
    writeFileSync(join(sb.project, "aic.config.json"), JSON.stringify({ budgte: 100 }));
    expect(aic(["inspect", "--project", sb.project, "--intent", "findUser"]).stdout).toMatch(
      /Warnings\n\s+.*unknown key "budgte" is ignored/,
    );
    writeFileSync(join(sb.project, "aic.config.json"), JSON.stringify({ budget: 0 }));
    const bad = aic(["inspect", "--project", sb.project, "--intent", "findUser"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(
      /^aic inspect: .*aic\.config\.json: "budget" must be a positive integer/,
    );
    rmSync(join(sb.project, "aic.config.json"));
  });

  it("aic inspect refuses the home folder and a missing project clearly", () => {
    const home = aic(["inspect", "--project", sb.home, "--intent", "x"]);
    expect(home.code).toBe(1);
    expect(home.stderr).toMatch(/^aic inspect: projectRoot .* is your home folder itself/);
    expect(aic(["inspect", "--project", "missing-dir", "--intent", "x"]).stderr).toMatch(
      /does not exist/,
    );
  });
});

describe("colour", () => {
  it("only on a TTY, and never with NO_COLOR", () => {
    expect(colourEnabled({ isTTY: true }, {})).toBe(true);
    expect(colourEnabled({ isTTY: false }, {})).toBe(false);
    expect(colourEnabled({}, {})).toBe(false);
    expect(colourEnabled({ isTTY: true }, { NO_COLOR: "1" })).toBe(false);
    expect(colourEnabled({ isTTY: true }, { NO_COLOR: "" })).toBe(true);
  });
});
