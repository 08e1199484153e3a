import { readdirSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCompiler, CompileInputError } from "../../src/compiler/index.js";
import {
  ENV_SECRET,
  GITHUB_TOKEN,
  TS_SECRET,
  pythonProject,
  tempDir,
  typescriptProject,
} from "./fixtures.js";

/** Every path under root with its size and mtime: proves the compiler never writes there. */
function snapshot(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const st = statSync(p, { throwIfNoEntry: false });
        out.push(`${p}:${st?.size}:${st?.mtimeMs}`);
      }
    }
  };
  walk(root);
  return out.sort();
}

describe("compile (end to end, real files)", () => {
  it("compiles a guarded, budgeted context that opens with the intent", async () => {
    const { root } = pythonProject({ git: true });
    const before = snapshot(root);
    const compiler = createCompiler({ cacheRoot: tempDir("cache") });
    const result = await compiler.compile({
      projectRoot: root,
      intent: "unicode passwords fail verify_password",
      budget: 3000,
    });

    expect(result.prompt.startsWith("# Task\n\nunicode passwords fail verify_password\n")).toBe(
      true,
    );
    expect(result.ranking[0]).toBe("app/auth.py");
    expect(result.files[0]).toMatchObject({ path: "app/auth.py", tier: "full" });
    expect(result.tokens.budget).toBe(3000);
    expect(result.tokens.used).toBeLessThanOrEqual(3000);
    expect(result.tokens.used).toBeGreaterThan(0);
    // Secrets: redacted in place, .env never included, nothing from outside the project.
    expect(result.prompt).not.toContain(GITHUB_TOKEN);
    expect(result.prompt).toContain("def verify_password(user, password):");
    expect(result.prompt).not.toContain(ENV_SECRET);
    expect(result.prompt).not.toContain("OUTSIDE-THE-PROJECT");
    expect(result.ranking).not.toContain(".env");
    expect(result.ranking).not.toContain("certs/server.pem");
    expect(result.meta.guardFindings).toEqual({ "github-token": 1 });
    expect(result.meta.cacheHit).toBe(false);
    expect(result.meta.filesSelected).toBe(result.files.filter((f) => f.tier !== "path").length);
    const trace = result.trace as {
      dropped: { path: string }[];
      scan: { skippedExamples: { path: string; reason: string }[] };
      ranking: { parts: object }[];
    };
    expect(trace.dropped.map((d) => d.path).sort()).toEqual([".env", "certs/server.pem"]);
    expect(trace.scan.skippedExamples).toEqual(
      expect.arrayContaining([{ path: "data/blob.txt", reason: "binary content" }]),
    );
    expect(trace.ranking[0]!.parts).toHaveProperty("content");
    expect(result.prompt).toMatch(/# Left out[\s\S]*never included/);
    expect(snapshot(root)).toEqual(before);
  });

  it("keeps a very long intent within the budget, truncated and marked", async () => {
    const { root } = pythonProject();
    const longIntent = `verify_password fails\n${"pip freeze output line with package==1.0\n".repeat(800)}`;
    const result = await createCompiler({ cacheRoot: tempDir("cache") }).compile({
      projectRoot: root,
      intent: longIntent,
      budget: 2000,
    });
    expect(result.tokens.used).toBeLessThanOrEqual(2000);
    expect(result.prompt.startsWith("# Task\n\nverify_password fails\n")).toBe(true);
    expect(result.prompt).toMatch(
      /\[\.\.\. intent truncated to fit the budget; \d+ tokens in all\]/,
    );
    expect(result.ranking[0]).toBe("app/auth.py");
  });

  it("gives the same bytes for the same inputs", async () => {
    const { root } = pythonProject();
    const a = await createCompiler({ cacheRoot: tempDir("cache") }).compile({
      projectRoot: root,
      intent: "token creation",
      budget: 2000,
    });
    const b = await createCompiler({ cacheRoot: tempDir("cache") }).compile({
      projectRoot: root,
      intent: "token creation",
      budget: 2000,
    });
    expect(b.prompt).toBe(a.prompt);
    expect(b.ranking).toEqual(a.ranking);
  });

  it("keeps a warm index that notices edited, added and removed files", async () => {
    const { root } = pythonProject();
    const cacheRoot = tempDir("cache");
    const compiler = createCompiler({ cacheRoot });
    await compiler.compile({ projectRoot: root, intent: "password", budget: 2000 });

    writeFileSync(
      join(root, "app/hashing.py"),
      "def rotate_credentials(store):\n    return store.rotate()\n",
    );
    writeFileSync(join(root, "app/audit.py"), "def audit_trail_entries():\n    return []\n");
    unlinkSync(join(root, "app/address.py"));
    const edited = await compiler.compile({
      projectRoot: root,
      intent: "rotate_credentials",
      budget: 2000,
    });
    expect(edited.ranking[0]).toBe("app/hashing.py");
    expect(edited.ranking).not.toContain("app/address.py");
    const added = await compiler.compile({
      projectRoot: root,
      intent: "audit trail entries",
      budget: 2000,
    });
    expect(added.ranking[0]).toBe("app/audit.py");
    expect((added.trace as { index: { read: number } }).index.read).toBe(0);

    // A new process (a new compiler on the same cache) re-reads nothing.
    const cold = await createCompiler({ cacheRoot }).compile({
      projectRoot: root,
      intent: "audit trail",
      budget: 2000,
    });
    expect((cold.trace as { index: { read: number; reused: number } }).index).toMatchObject({
      read: 0,
    });
    expect(cold.ranking[0]).toBe("app/audit.py");
  });

  it("serves concurrent compiles of one project correctly (one at a time)", async () => {
    const { root } = pythonProject();
    const compiler = createCompiler({ cacheRoot: tempDir("cache") });
    const intents = ["verify_password", "make_token", "AddressBook lookup", "hash_password"];
    const results = await Promise.all(
      intents.map((intent) => compiler.compile({ projectRoot: root, intent, budget: 1500 })),
    );
    expect(results.map((r) => r.ranking[0])).toEqual([
      "app/auth.py",
      "app/tokens.py",
      "app/address.py",
      "app/hashing.py",
    ]);
    const failed = await Promise.allSettled([
      compiler.compile({ projectRoot: root, intent: "" }),
      compiler.compile({ projectRoot: root, intent: "make_token", budget: 1500 }),
    ]);
    expect(failed[0].status).toBe("rejected");
    expect(failed[1].status).toBe("fulfilled");
  });

  it("answers the same from the saved index and import graph as from a fresh build", async () => {
    const { root } = pythonProject();
    const cacheRoot = tempDir("cache");
    const request = {
      projectRoot: root,
      intent: "verify_password with hash_password",
      budget: 2000,
    };
    const fresh = await createCompiler({ cacheRoot }).compile(request);
    const fromCache = await createCompiler({ cacheRoot }).compile(request);
    expect((fromCache.trace as { index: { read: number } }).index.read).toBe(0);
    expect(fromCache.ranking).toEqual(fresh.ranking);
    expect(fromCache.prompt).toBe(fresh.prompt);
    const graphParts = (r: typeof fresh) =>
      (r.trace as { ranking: { path: string; parts: { graph: number } }[] }).ranking.map((x) => [
        x.path,
        x.parts.graph,
      ]);
    expect(graphParts(fromCache)).toEqual(graphParts(fresh));
    expect(graphParts(fresh).some(([, g]) => (g as number) > 0)).toBe(true);
  });

  it("ranks and packs TypeScript with tsconfig paths", async () => {
    const root = typescriptProject();
    const result = await createCompiler({ cacheRoot: tempDir("cache") }).compile({
      projectRoot: root,
      intent: "InvoiceRenderer.render shows the wrong total",
      budget: 2000,
    });
    expect(result.ranking[0]).toBe("src/lib/invoice.ts");
    for (const excluded of [
      "src/app.min.js",
      "dist/index.js",
      ".env",
      "public/favicon.ico",
      "src/generated/huge.ts",
      "src/lib/secrets.local.ts",
      "src/outside-link.ts",
    ])
      expect(result.ranking).not.toContain(excluded);
    const payments = await createCompiler({ cacheRoot: tempDir("cache") }).compile({
      projectRoot: root,
      intent: "stripe payments config retries",
      budget: 2000,
    });
    expect(payments.ranking[0]).toBe("src/payments/config.ts");
    expect(payments.prompt).toContain("export const retries = 3;");
    expect(payments.prompt).not.toContain(TS_SECRET);
    expect(payments.prompt).not.toContain("outside-the-project");
    expect(payments.meta.guardFindings).toEqual({ "stripe-key": 1 });
    // Template literals and || pass the guard untouched.
    expect(result.prompt).toContain('return `Total: ${invoice.total}` || "none";');
  });

  it("boosts related files from tool outputs and honours allow patterns", async () => {
    const { root } = pythonProject();
    const compiler = createCompiler({ cacheRoot: tempDir("cache") });
    const result = await compiler.compile({
      projectRoot: root,
      intent: "password check",
      budget: 3000,
      toolOutputs: [
        { type: "terminal", content: "error in address lookup", relatedFiles: ["app/address.py"] },
      ],
      guardAllowPatterns: ["^ghp_"],
    });
    expect(result.ranking.slice(0, 2)).toContain("app/address.py");
    expect(result.prompt).toContain(GITHUB_TOKEN);
  });

  it("rejects bad input with a message that says what to do", async () => {
    const compiler = createCompiler({ cacheRoot: tempDir("cache") });
    const { root } = pythonProject();
    const bad = [
      [{ projectRoot: join(root, "missing"), intent: "x" }, /does not exist/],
      [{ projectRoot: join(root, "README.md"), intent: "x" }, /is not a folder/],
      [{ projectRoot: root, intent: "   " }, /intent is empty/],
      [{ projectRoot: root, intent: "x", budget: 0 }, /not a positive whole number/],
      [{ projectRoot: root, intent: "x", budget: 12.5 }, /not a positive whole number/],
      [{ projectRoot: root, intent: "x", budget: 50 }, /too small/],
    ] as const;
    for (const [request, message] of bad) {
      const err = await compiler.compile(request).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CompileInputError);
      expect((err as Error).message).toMatch(message);
    }
  });
});
