import { describe, expect, it } from "vitest";
import { countTokens } from "../../src/compiler/tokens.js";
import { packFiles, type PackCandidate, type PackDeps } from "../../src/compiler/pack.js";
import { renderPrompt } from "../../src/compiler/render.js";
import { analyzeIntent } from "../../src/compiler/intent.js";
import { extractSymbols } from "../../src/compiler/syntax.js";

function bigModule(n: number): string {
  const out: string[] = ["import os", ""];
  for (let i = 0; i < n; i++) {
    out.push(
      `def helper_${i}(value):`,
      `    """Helper number ${i} does arithmetic."""`,
      `    total = value * ${i}`,
      `    return total + ${i}`,
      "",
    );
  }
  out.push("class Session:", "    def __init__(self):", "        self.cookies = {}", "");
  // Enough methods that the class is split into its methods.
  for (let i = 0; i < 20; i++) out.push(`    def other_${i}(self):`, `        return ${i}`, "");
  out.push(
    "    def request(self, method, url):",
    "        method = method.upper()",
    "        return self.send(method, url)",
    "",
  );
  return out.join("\n");
}

async function setup(files: Record<string, string>) {
  const count = await countTokens();
  const deps: PackDeps = {
    countTokens: count,
    loadText: async (p) => files[p]!,
    loadSymbols: (p, text) => extractSymbols("python", text),
  };
  const candidates: PackCandidate[] = Object.keys(files).map((path) => ({
    path,
    lang: "python",
    estTokens: Math.ceil(files[path]!.length / 4),
  }));
  return { count, deps, candidates };
}

describe("pack", () => {
  it("puts small files in whole", async () => {
    const files = { "a.py": "def a():\n    return 1\n", "b.py": "def b():\n    return 2\n" };
    const { deps, candidates } = await setup(files);
    const intent = analyzeIntent("a");
    const items = await packFiles(candidates, deps, {
      budget: 2000,
      reserved: 100,
      intent,
      termWeights: new Map(),
    });
    expect(items.map((i) => [i.path, i.tier])).toEqual([
      ["a.py", "full"],
      ["b.py", "full"],
    ]);
  });

  it("falls back to whole matching regions with their class signature, never a cut unit", async () => {
    const files = { "big.py": bigModule(200) };
    const { deps, candidates, count } = await setup(files);
    const intent = analyzeIntent("Session.request uppercases the method");
    const items = await packFiles(candidates, deps, {
      budget: 1500,
      reserved: 100,
      intent,
      termWeights: new Map([
        ["method", 2],
        ["upper", 1],
      ]),
    });
    expect(items[0]!.tier).toBe("regions");
    const body = items[0]!.body!;
    expect(body).toContain("class Session:");
    expect(body).toContain(
      "    def request(self, method, url):\n        method = method.upper()\n        return self.send(method, url)",
    );
    expect(items[0]!.regions?.some((r) => r.symbol === "Session.request")).toBe(true);
    expect(items[0]!.tokens).toBeLessThanOrEqual(1400);
    // Every region is a complete unit of the source.
    const lines = files["big.py"].split("\n");
    for (const r of items[0]!.regions!)
      expect(body).toContain(lines.slice(r.startLine - 1, r.endLine).join("\n"));
    expect(count(body)).toBeLessThan(count(files["big.py"]));
  });

  it("lists paths only when nothing of a file fits", async () => {
    const files = { "big.py": bigModule(400), "other.py": bigModule(400) };
    const { deps, candidates } = await setup(files);
    const items = await packFiles(candidates, deps, {
      budget: 260,
      reserved: 150,
      intent: analyzeIntent("nothing matches here"),
      termWeights: new Map(),
    });
    expect(items.every((i) => i.tier === "path" || i.tier === "outline")).toBe(true);
    expect(items.reduce((s, i) => s + i.tokens, 0)).toBeLessThanOrEqual(110);
  });
});

describe("render", () => {
  const nothingLeftOut = {
    unlisted: 0,
    forbidden: 0,
    skipped: 0,
    redactions: 0,
    injections: 0,
    pathOnly: 0,
  };

  it("opens with the intent, heads each file with path and tier, and notes what was left out", () => {
    const items = [
      {
        path: "a.py",
        lang: "python",
        tier: "full" as const,
        tokens: 10,
        body: "x = 1\n",
        reason: "",
      },
      { path: "b.py", lang: "python", tier: "path" as const, tokens: 3, reason: "" },
    ];
    const left = {
      unlisted: 5,
      forbidden: 1,
      skipped: 2,
      redactions: 1,
      injections: 0,
      pathOnly: 1,
    };
    const prompt = renderPrompt("Fix the login", items, left);
    expect(prompt.startsWith("# Task\n\nFix the login\n")).toBe(true);
    expect(prompt).toContain("## a.py (full)\n```python\nx = 1\n```\n");
    expect(prompt).toContain("- b.py\n");
    expect(prompt).toMatch(
      /# Left out[\s\S]*5 lower-ranked files[\s\S]*never included[\s\S]*redacted/,
    );
    expect(renderPrompt("Fix the login", items, left)).toBe(prompt);
  });

  it("says so when there was no file to consider", () => {
    expect(renderPrompt("Fix it", [], nothingLeftOut, 0)).toMatch(
      /# Left out\n\n- No project file could be considered/,
    );
  });

  it("uses a longer fence when the file itself contains a fence", () => {
    const items = [
      {
        path: "README.md",
        lang: "markdown",
        tier: "full" as const,
        tokens: 10,
        body: "```sh\nls\n```\n",
        reason: "",
      },
    ];
    const prompt = renderPrompt("docs", items, nothingLeftOut);
    expect(prompt).toContain("````markdown\n```sh\nls\n```\n````\n");
  });
});
