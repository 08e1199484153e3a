/**
 * runCompilation in-process with the real compiler and a real SQLite file: every accepted field
 * has an observable effect, and the cache is keyed on what changes the output.
 */
import Database from "better-sqlite3";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import {
  AicInputError,
  inspectCompilation,
  runCompilation,
  type AicCompileInput,
  type CompiledOutcome,
  type CompilationDeps,
} from "../../src/service/compilation-service.js";
import { appendSessionModel } from "../../src/shared/project-logs.js";
import { listCompilations, openDatabase, type Db } from "../../src/store/index.js";
import { makeSandbox, type Sandbox } from "./fixture-project.js";

// The compiler's index cache lives under AIC_HOME: never the real ~/.aic.
const processSandbox = makeSandbox({});
process.env.AIC_HOME = processSandbox.aicHome;
process.env.HOME = processSandbox.home;

let sb: Sandbox;
let db: Db;
let deps: Partial<CompilationDeps>;

beforeEach(() => {
  sb = makeSandbox();
  db = openDatabase({ path: join(sb.aicHome, "aic.sqlite") });
  deps = { db: () => db, homeDir: sb.home };
});

async function compiled(input: Partial<AicCompileInput>): Promise<CompiledOutcome> {
  const out = await runCompilation(
    { intent: "hashPassword for unicode passwords", projectRoot: sb.project, ...input },
    deps,
  );
  if (out.reparented) throw new Error("expected a compilation");
  return out;
}

describe("runCompilation", () => {
  it("records every field it accepts", async () => {
    const out = await compiled({
      editorId: "cursor",
      triggerSource: "tool_gate",
      conversationId: "c1",
      modelId: "claude-x",
      stepIndex: 3,
      stepIntent: "check the NFC normalisation in password.ts",
      conversationTokens: 1000,
    });
    const [row] = listCompilations(db);
    expect(row).toMatchObject({
      projectRoot: sb.project,
      editorId: "cursor",
      triggerSource: "tool_gate",
      conversationId: "c1",
      modelId: "claude-x",
      stepIndex: 3,
      stepIntent: "check the NFC normalisation in password.ts",
      conversationTokens: 1000,
      intent: "hashPassword for unicode passwords\ncheck the NFC normalisation in password.ts",
      intentSource: "given",
      tokenBudget: 8000,
      cacheHit: false,
      filesSelected: out.meta.filesSelected,
      tokensCompiled: out.meta.tokensCompiled,
    });
    expect(row!.topFiles[0]).toMatchObject({ path: expect.stringMatching(/^src\//) });
    // stepIntent refines the compiled intent: the prompt opens with both.
    expect(out.prompt).toContain("check the NFC normalisation in password.ts");
    expect(out.logId).toBe(row!.id);
  });

  it("takes the budget from aic.config.json, lets the caller override it, and shrinks it for a full conversation", async () => {
    writeFileSync(join(sb.project, "aic.config.json"), JSON.stringify({ budget: 3000 }));
    expect((await compiled({})).meta.budget).toBe(3000);
    expect((await compiled({ budget: 5000 })).meta.budget).toBe(5000);
    // 200k window - 190k used = 10k left; a quarter of it.
    expect((await compiled({ budget: 5000, conversationTokens: 190_000 })).meta.budget).toBe(2500);
    expect((await compiled({ conversationTokens: 1_000_000 })).meta.budget).toBe(1000);
  });

  it("checks the numbers in-process callers pass (they skip the MCP schema)", async () => {
    await expect(compiled({ budget: 0 })).rejects.toThrow(
      /budget must be a whole number ≥ 1, got 0/,
    );
    await expect(compiled({ conversationTokens: -1 })).rejects.toThrow(/conversationTokens/);
    await expect(compiled({ stepIndex: 1.5 })).rejects.toThrow(/stepIndex/);
  });

  it("surfaces a bad aic.config.json naming the key, and warns about unknown keys", async () => {
    writeFileSync(join(sb.project, "aic.config.json"), JSON.stringify({ budget: "big" }));
    await expect(compiled({})).rejects.toThrow(/"budget" must be a positive integer/);
    writeFileSync(join(sb.project, "aic.config.json"), JSON.stringify({ budgte: 100 }));
    expect((await compiled({})).meta.warnings.join("\n")).toMatch(/unknown key "budgte"/);
  });

  it("resolves the model from the caller, then the conversation's session-models log, then the config", async () => {
    writeFileSync(join(sb.project, "aic.config.json"), JSON.stringify({ model: "config-model" }));
    appendSessionModel(sb.project, { conversationId: "c1", model: "session-model" });
    expect((await compiled({ conversationId: "c1", modelId: "given" })).meta.modelId).toBe("given");
    expect((await compiled({ conversationId: "c1" })).meta.modelId).toBe("session-model");
    expect((await compiled({ conversationId: "c2" })).meta.modelId).toBe("config-model");
  });

  it("keys the cache on intent, budget, model, related files (as a set), previous files and contents", async () => {
    const testOutput = (relatedFiles: string[]) => ({
      toolOutputs: [{ type: "test", content: "FAIL login", relatedFiles }],
    });
    const base = testOutput(["src/db/users.ts", "src/auth/login.ts"]);
    expect((await compiled(base)).meta.cacheHit).toBe(false);
    expect((await compiled(base)).meta.cacheHit).toBe(true);
    const reordered = testOutput(["src/auth/login.ts", "src/db/users.ts"]);
    expect((await compiled(reordered)).meta.cacheHit).toBe(true);
    // The type label changes nothing, so it is not part of the key either.
    expect(
      (await compiled({ toolOutputs: [{ ...base.toolOutputs[0]!, type: "lint" }] })).meta.cacheHit,
    ).toBe(true);
    for (const changed of [
      { ...base, intent: "invoice totals" },
      { ...base, budget: 4000 },
      { ...base, modelId: "other" },
      testOutput(["src/db/users.ts"]),
      { ...base, previousFiles: ["README.md"] },
      { toolOutputs: [{ ...base.toolOutputs[0]!, content: "FAIL invoiceTotal" }] },
    ]) {
      expect((await compiled(changed)).meta.cacheHit, JSON.stringify(changed)).toBe(false);
    }
    // A new file in the project invalidates too.
    mkdirSync(join(sb.project, "src/auth/unicode"), { recursive: true });
    writeFileSync(join(sb.project, "src/auth/unicode/nfc.ts"), "export const NFC = 'NFC';\n");
    expect((await compiled(base)).meta.cacheHit).toBe(false);
    // The task class is not part of the key: two different bugfix requests never share a context.
    const a = await compiled({ intent: "fix the crash in invoiceTotal" });
    const b = await compiled({ intent: "fix the crash in findUser" });
    expect(b.meta.cacheHit).toBe(false);
    expect(a.prompt).not.toBe(b.prompt);
  });

  it("falls back to the conversation's last real intent for weak ones, and refuses an empty intent with no history", async () => {
    await expect(compiled({ intent: "  " })).rejects.toThrow(AicInputError);
    await expect(compiled({ intent: "" })).rejects.toThrow(/intent is empty/);
    expect((await compiled({ intent: "continue" })).meta.intentSource).toBe("given-weak");
    await compiled({ intent: "invoiceTotal rounding", conversationId: "c9" });
    for (const weak of ["", "Continue.", "go on", "yes", "OK!"]) {
      const out = await compiled({ intent: weak, conversationId: "c9" });
      expect(out.meta).toMatchObject({
        intent: "invoiceTotal rounding",
        intentSource: "conversation-fallback",
      });
    }
    const row = listCompilations(db).at(-1)!;
    expect(row.intentGiven).toBe("OK!");
    // A weak intent with a step intent compiles the step on top of the fallback.
    const stepped = await compiled({
      intent: "yes",
      conversationId: "c9",
      stepIntent: "monthly_report",
    });
    expect(stepped.meta.intent).toBe("invoiceTotal rounding\nmonthly_report");
  });

  it("reparents only with subagent_stop and both conversation ids", async () => {
    await compiled({ conversationId: "child" });
    await compiled({ conversationId: "child" });
    await expect(
      runCompilation(
        {
          intent: "",
          projectRoot: sb.project,
          triggerSource: "subagent_stop",
          reparentFromConversationId: "child",
        },
        deps,
      ),
    ).rejects.toThrow(/needs both conversationId/);
    await expect(
      runCompilation(
        {
          intent: "x",
          projectRoot: sb.project,
          conversationId: "p",
          reparentFromConversationId: "child",
        },
        deps,
      ),
    ).rejects.toThrow(/only accepted with triggerSource "subagent_stop"/);
    const out = await runCompilation(
      {
        intent: "",
        projectRoot: sb.project,
        triggerSource: "subagent_stop",
        conversationId: "parent",
        reparentFromConversationId: "child",
      },
      deps,
    );
    expect(out).toMatchObject({ reparented: true, rowsUpdated: 2 });
    expect(listCompilations(db, { conversationId: "parent" })).toHaveLength(2);
  });

  it("still returns the context when recording fails, and says so", async () => {
    await compiled({}); // creates the schema
    const readOnly = new Database(join(sb.aicHome, "aic.sqlite"), { readonly: true });
    const out = await runCompilation(
      { intent: "findUser", projectRoot: sb.project },
      { ...deps, db: () => readOnly },
    );
    if (out.reparented) throw new Error("unexpected");
    expect(out.prompt).toContain("findUser");
    expect(out.meta.warnings.join("\n")).toMatch(/not recorded/);
    expect(out.logId).toBeUndefined();
  });

  it("normalises absolute and ./ paths in previousFiles and relatedFiles, and reports outside ones", async () => {
    const out = await inspectCompilation(
      {
        intent: "invoiceTotal",
        projectRoot: sb.project,
        previousFiles: [join(sb.project, "src/db/users.ts"), "/etc/passwd"],
        toolOutputs: [
          { type: "grep", content: "x", relatedFiles: ["./src\\auth\\login.ts", "../other/x.ts"] },
        ],
      },
      deps,
    );
    const ranking = (
      out.context.trace as { ranking: { path: string; parts: Record<string, number> }[] }
    ).ranking;
    expect(ranking.find((r) => r.path === "src/db/users.ts")?.parts.previous).toBe(1);
    expect(ranking.find((r) => r.path === "src/auth/login.ts")?.parts.related).toBe(1);
    expect(out.warnings.join("\n")).toMatch(
      /ignored 2 file path\(s\) outside the project: \/etc\/passwd, \.\.\/other\/x\.ts/,
    );
  });

  it("still compiles when the database file is corrupt, and says the compilation was not recorded", async () => {
    const corrupt = join(sb.home, "corrupt.sqlite");
    writeFileSync(
      corrupt,
      "this is not an SQLite database, just text that is long enough".repeat(100),
    );
    const out = await runCompilation(
      { intent: "findUser", projectRoot: sb.project, conversationId: "c1" },
      { ...deps, db: () => openDatabase({ path: corrupt }) },
    );
    if (out.reparented) throw new Error("unexpected");
    expect(out.prompt).toContain("findUser");
    expect(out.meta.warnings.join("\n")).toMatch(/conversation history unavailable/);
    expect(out.meta.warnings.join("\n")).toMatch(
      /neither cached nor recorded: cannot open the AIC database at .*corrupt\.sqlite/,
    );
    expect(readFileSync(join(sb.project, ".aic", "last-compiled-prompt.txt"), "utf8")).toBe(
      out.prompt,
    );
  });

  it("inspect returns the trace and writes nothing", async () => {
    const out = await inspectCompilation({ intent: "invoiceTotal", projectRoot: sb.project }, deps);
    expect(out.context.ranking[0]).toBe("src/billing/invoice.ts");
    expect(out.context.trace).toHaveProperty("ranking");
    expect(listCompilations(db)).toHaveLength(0);
    expect(db.prepare("SELECT COUNT(*) AS n FROM compile_cache").get()).toEqual({ n: 0 });
  });
});
