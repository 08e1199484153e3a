/**
 * The hooks that compile (session start, subagent start and stop) load AIC's compilation service
 * in-process from the package root. A stand-in package records what they send; the real service
 * from this repository's build is used when it has been built.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { OMITTED_INTENT } from "../../src/integrations/cursor/intent.js";
import {
  buildHooks,
  fixture,
  makeSandbox,
  readHealth,
  REPO_ROOT,
  runHook,
  standInPackage,
  type HookRun,
  type Sandbox,
} from "./helpers.js";

const CONV = "6f1c2a7e-3b1d-4c55-9a0e-2f8d7c1b9e10";
const CHILD = "0c9e8d7f-1a2b-4c3d-9e8f-7a6b5c4d3e2f";
// Top-level await: every test in the file runs against the same private bundles.
const hooks = await buildHooks();

/** Run a built hook as Cursor does, loading AIC's compilation service from `packageRoot`. */
function runWithPackage(
  packageRoot: string,
  script: string,
  sb: Sandbox,
  payload: Record<string, unknown>,
  env: NodeJS.ProcessEnv = {},
): Promise<HookRun> {
  return runHook(hooks, script, sb, payload, { env: { AIC_PACKAGE_ROOT: packageRoot, ...env } });
}

describe("AIC-compile-context", () => {
  it("compiles the session snapshot in-process and answers additional_context and env", async () => {
    const sb = makeSandbox();
    const pkg = standInPackage(sb);
    const r = await runWithPackage(
      pkg.root,
      "AIC-compile-context.cjs",
      sb,
      fixture("sessionStart", sb.root),
    );
    expect(r.json?.env).toEqual({ AIC_PROJECT_ROOT: sb.root, AIC_CONVERSATION_ID: CONV });
    expect(String(r.json?.additional_context)).toContain(`## Task\n${OMITTED_INTENT}`);
    expect(pkg.calls()).toEqual([
      {
        intent: OMITTED_INTENT,
        projectRoot: sb.root,
        editorId: "cursor",
        triggerSource: "session_start",
        conversationId: CONV,
        modelId: "claude-4.5-sonnet",
      },
    ]);
    expect(readHealth(sb)).toEqual([]);
  });

  it("uses a cloud agent's bc- conversation id", async () => {
    const sb = makeSandbox();
    const pkg = standInPackage(sb);
    const r = await runWithPackage(
      pkg.root,
      "AIC-compile-context.cjs",
      sb,
      fixture("sessionStart.cloud-no-transcript", sb.root),
    );
    expect(r.json?.env).toEqual({ AIC_PROJECT_ROOT: sb.root, AIC_CONVERSATION_ID: "bc-9d2f1e" });
    expect(pkg.calls()[0]).toMatchObject({ conversationId: "bc-9d2f1e" });
  });

  it("answers {} within its deadline when the compile is too slow", async () => {
    const sb = makeSandbox();
    const pkg = standInPackage(sb);
    const r = await runWithPackage(
      pkg.root,
      "AIC-compile-context.cjs",
      sb,
      fixture("sessionStart", sb.root),
      {
        STAND_IN_SLOW: "1",
        AIC_HOOK_DEADLINE_MS: "800",
      },
    );
    expect(r.code).toBe(0);
    expect(r.json).toEqual({});
    expect(readHealth(sb)).toMatchObject([{ hook: "AIC-compile-context", stage: "deadline" }]);
  });

  it("answers {} and logs why when the package has no compilation service", async () => {
    const sb = makeSandbox();
    const r = await runWithPackage(
      join(sb.home, "nowhere"),
      "AIC-compile-context.cjs",
      sb,
      fixture("sessionStart", sb.root),
    );
    expect(r.json).toEqual({});
    expect(String(readHealth(sb)[0]?.message)).toMatch(
      /cannot load .*nowhere\/dist\/service\/compilation-service\.js/,
    );
  });

  it("finds the package through the installer's replaced literal, else two folders up", async () => {
    const sb = makeSandbox();
    const pkg = standInPackage(sb);
    const deployed = join(sb.root, ".cursor/hooks");
    mkdirSync(deployed, { recursive: true });
    const text = readFileSync(join(hooks, "AIC-compile-context.cjs"), "utf8");
    writeFileSync(
      join(deployed, "AIC-compile-context.cjs"),
      text.replace('"__AIC_PACKAGE_ROOT__"', JSON.stringify(pkg.root)),
    );
    const viaLiteral = await runHook(
      deployed,
      "AIC-compile-context.cjs",
      sb,
      fixture("sessionStart", sb.root),
    );
    expect(viaLiteral.json).toHaveProperty("env");

    mkdirSync(join(pkg.root, "dist/hooks"));
    copyFileSync(
      join(hooks, "AIC-compile-context.cjs"),
      join(pkg.root, "dist/hooks/AIC-compile-context.cjs"),
    );
    const viaLocation = await runHook(
      join(pkg.root, "dist/hooks"),
      "AIC-compile-context.cjs",
      sb,
      fixture("sessionStart", sb.root),
    );
    expect(viaLocation.json).toHaveProperty("env");
    expect(pkg.calls()).toHaveLength(2);
  });
});

describe("subagent hooks", () => {
  it("AIC-subagent-compile: telemetry compile under the parent, model recorded, always allows", async () => {
    const sb = makeSandbox();
    const pkg = standInPackage(sb);
    const r = await runWithPackage(
      pkg.root,
      "AIC-subagent-compile.cjs",
      sb,
      fixture("subagentStart", sb.root),
    );
    expect(r.json).toEqual({ permission: "allow" });
    const noModel = fixture("subagentStart", sb.root);
    delete noModel.subagent_model;
    delete noModel.task;
    await runWithPackage(pkg.root, "AIC-subagent-compile.cjs", sb, noModel);
    const [first, second] = pkg.calls();
    expect(first).toEqual({
      intent: "Find every caller of AuthService.login and summarize error handling",
      projectRoot: sb.root,
      editorId: "cursor",
      triggerSource: "subagent_start",
      conversationId: CONV,
      modelId: "claude-4.5-haiku",
    });
    // The model comes from .aic/session-models.jsonl when Cursor omits it; the prompt stands in for the task.
    expect(second).toMatchObject({ modelId: "claude-4.5-haiku", intent: String(noModel.prompt) });
    const models = readFileSync(join(sb.root, ".aic/session-models.jsonl"), "utf8")
      .trim()
      .split("\n");
    expect(models).toHaveLength(1);
  });

  it("AIC-subagent-start-model-id records the subagent model without compiling", async () => {
    const sb = makeSandbox();
    const pkg = standInPackage(sb);
    const r = await runWithPackage(
      pkg.root,
      "AIC-subagent-start-model-id.cjs",
      sb,
      fixture("subagentStart", sb.root),
    );
    expect(r.json).toEqual({ permission: "allow" });
    expect(pkg.calls()).toEqual([]);
    const models = readFileSync(join(sb.root, ".aic/session-models.jsonl"), "utf8");
    expect(JSON.parse(models)).toMatchObject({
      conversationId: CONV,
      model: "claude-4.5-haiku",
      source: "subagentStart",
    });
  });

  it("AIC-subagent-compile allows even when the compile fails", async () => {
    const sb = makeSandbox();
    const r = await runWithPackage(
      join(sb.home, "nowhere"),
      "AIC-subagent-compile.cjs",
      sb,
      fixture("subagentStart", sb.root),
    );
    expect(r.json).toEqual({ permission: "allow" });
    expect(readHealth(sb)).toMatchObject([
      { hook: "AIC-subagent-compile", stage: "telemetry compile" },
    ]);
  });

  it("AIC-subagent-stop: reparents the child transcript's rows to the parent", async () => {
    const sb = makeSandbox();
    const pkg = standInPackage(sb);
    const r = await runWithPackage(
      pkg.root,
      "AIC-subagent-stop.cjs",
      sb,
      fixture("subagentStop", sb.root),
    );
    expect(r.json).toEqual({});
    expect(pkg.calls()).toEqual([
      {
        intent: "reparent subagent compilations",
        projectRoot: sb.root,
        editorId: "cursor",
        triggerSource: "subagent_stop",
        conversationId: CONV,
        reparentFromConversationId: CHILD,
      },
    ]);
    const same = { ...fixture("subagentStop", sb.root), agent_transcript_path: `/x/${CONV}.jsonl` };
    await runWithPackage(pkg.root, "AIC-subagent-stop.cjs", sb, same);
    expect(pkg.calls()).toHaveLength(1);
  });
});

const realService = join(REPO_ROOT, "dist/service/compilation-service.js");
describe.skipIf(!existsSync(realService))(
  "with the real compilation service (skipped until `npm run build` has produced dist/service)",
  () => {
    it("AIC-compile-context compiles a small project and the subagent hooks record and reparent", async () => {
      const sb = makeSandbox();
      mkdirSync(join(sb.root, "src/auth"), { recursive: true });
      writeFileSync(
        join(sb.root, "src/auth/service.ts"),
        "export function hashPassword(password: string): string {\n  return password.normalize('NFC');\n}\n",
      );
      writeFileSync(join(sb.root, "README.md"), "# shop-api\nA small shop API with login.\n");

      const r = await runWithPackage(
        REPO_ROOT,
        "AIC-compile-context.cjs",
        sb,
        fixture("sessionStart", sb.root),
      );
      expect(readHealth(sb)).toEqual([]);
      expect(r.json?.env).toEqual({ AIC_PROJECT_ROOT: sb.root, AIC_CONVERSATION_ID: CONV });
      expect(String(r.json?.additional_context)).toContain("src/auth/service.ts");

      const start = await runWithPackage(REPO_ROOT, "AIC-subagent-compile.cjs", sb, {
        ...fixture("subagentStart", sb.root),
        parent_conversation_id: CHILD,
        conversation_id: CHILD,
      });
      expect(start.json).toEqual({ permission: "allow" });
      const stop = await runWithPackage(
        REPO_ROOT,
        "AIC-subagent-stop.cjs",
        sb,
        fixture("subagentStop", sb.root),
      );
      expect(stop.json).toEqual({});
      expect(readHealth(sb)).toEqual([]);

      const db = new Database(join(sb.aicHome, "aic.sqlite"), { readonly: true });
      const rows = db
        .prepare(
          "SELECT conversation_id, reparented_from, editor_id, trigger_source, model_id FROM compilation_log ORDER BY id",
        )
        .all();
      db.close();
      expect(rows).toEqual([
        {
          conversation_id: CONV,
          reparented_from: null,
          editor_id: "cursor",
          trigger_source: "session_start",
          model_id: "claude-4.5-sonnet",
        },
        {
          conversation_id: CONV,
          reparented_from: CHILD,
          editor_id: "cursor",
          trigger_source: "subagent_start",
          model_id: "claude-4.5-haiku",
        },
      ]);
    });
  },
);
