/**
 * Contract tests: every built hook run as Cursor runs it, with the stdout its event allows and
 * each side effect checked on disk.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HOOK_SCRIPTS } from "../../src/integrations/cursor/manifest.js";
import { conversationStateDir, projectStateDir } from "../../src/integrations/shared/hook-state.js";
import {
  buildHooks,
  fixture,
  listFiles,
  makeSandbox,
  readHealth,
  runHook,
  startHook,
  type Sandbox,
} from "./helpers.js";

const CONV = "6f1c2a7e-3b1d-4c55-9a0e-2f8d7c1b9e10";
const GEN = "b7e4d0a2-91c3-4f6e-8d25-0c3a5e7f1b44";

/** What each hook answers when it has nothing to say (sessionEnd: no stdout). */
const NEUTRAL: Record<string, Record<string, unknown> | undefined> = {
  "AIC-session-init.cjs": {},
  "AIC-compile-context.cjs": {},
  "AIC-before-submit-prewarm.cjs": { continue: true },
  "AIC-inject-conversation-id.cjs": { permission: "allow" },
  "AIC-post-compile-context.cjs": {},
  "AIC-block-no-verify.cjs": { permission: "allow" },
  "AIC-after-file-edit-tracker.cjs": {},
  "AIC-stop-quality-check.cjs": {},
  "AIC-session-end.cjs": undefined,
  "AIC-subagent-compile.cjs": { permission: "allow" },
  "AIC-subagent-stop.cjs": {},
  "AIC-subagent-start-model-id.cjs": { permission: "allow" },
  "AIC-pre-compact.cjs": {},
};
const GATE = "AIC-require-aic-compile.cjs";

// Top-level await: every test in the file runs against the same private bundles.
const hooks = await buildHooks();

function convDir(sb: Sandbox, conv = CONV): string {
  return conversationStateDir(sb.root, conv, sb.env);
}

function mode(path: string): number {
  return statSync(path).mode & 0o777;
}

describe("packaging", () => {
  it("builds one self-contained bundle per manifest script, Node built-ins only", () => {
    for (const script of HOOK_SCRIPTS) {
      const text = readFileSync(join(hooks, script), "utf8");
      const required = [...text.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]);
      expect(
        required.every((r) => r!.startsWith("node:")),
        `${script}: ${required}`,
      ).toBe(true);
    }
    expect(Object.keys(NEUTRAL).length + 1).toBe(HOOK_SCRIPTS.length);
  });

  it("keeps the installer's package-root placeholder exactly once in the compiling hooks", () => {
    for (const script of [
      "AIC-compile-context.cjs",
      "AIC-subagent-compile.cjs",
      "AIC-subagent-stop.cjs",
    ]) {
      const text = readFileSync(join(hooks, script), "utf8");
      expect(text.split('"__AIC_PACKAGE_ROOT__"').length - 1, script).toBe(1);
    }
  });
});

describe("every hook survives bad input", () => {
  for (const script of HOOK_SCRIPTS) {
    it(`${script}: empty, invalid, oversized, foreign and null-field payloads`, async () => {
      const sb = makeSandbox();
      const expectNeutral = (r: { code: number | null; json: unknown }): void => {
        expect(r.code).toBe(0);
        if (script === GATE) {
          expect(r.json).toMatchObject({ permission: "deny" });
          expect(String((r.json as Record<string, unknown>).agent_message)).toMatch(/aic_compile/);
          expect(String((r.json as Record<string, unknown>).agent_message)).toMatch(
            /skipCompileGate/,
          );
        } else expect(r.json).toEqual(NEUTRAL[script]);
      };

      // A Claude Code payload: no output and no side effects at all.
      const foreign = await runHook(hooks, script, sb, fixture("claude-code.PreToolUse", sb.root));
      expect(foreign.code).toBe(0);
      expect(foreign.stdout).toBe("");
      expect(listFiles(sb.root)).toEqual([]);
      expect(listFiles(sb.home)).toEqual([]);

      expectNeutral(await runHook(hooks, script, sb, ""));
      expectNeutral(await runHook(hooks, script, sb, "{not json"));
      expectNeutral(await runHook(hooks, script, sb, Buffer.alloc(9 * 1024 * 1024, 0x20)));
      const health = readHealth(sb).filter((h) => h.hook === script.replace(/\.cjs$/, ""));
      expect(health.map((h) => h.stage)).toEqual(["read stdin", "read stdin", "read stdin"]);
      expect(String(health[2]!.message)).toMatch(/exceeded/);

      // Every field null except Cursor's stamp: tolerated, answered in the event's shape.
      const nulls = Object.fromEntries(
        Object.keys(fixture("preCompact", sb.root)).map((k) => [k, null]),
      );
      const r = await runHook(hooks, script, sb, {
        ...nulls,
        cursor_version: "3.22.12",
        extra: { x: 1 },
      });
      expect(r.code).toBe(0);
      if (script === GATE) expect(r.json).toMatchObject({ permission: "deny" });
      else if (script !== "AIC-pre-compact.cjs" && script !== "AIC-session-init.cjs")
        expect(r.json).toEqual(NEUTRAL[script]);
    });
  }

  it("answers as soon as the payload is complete, even if the writer never closes stdin", async () => {
    const sb = makeSandbox();
    const hook = startHook(hooks, "AIC-block-no-verify.cjs", sb);
    hook.stdin.write(JSON.stringify(fixture("beforeShellExecution.git-no-verify", sb.root)));
    // The pipe stays open; the hook does not wait for its end once the JSON object is whole.
    const { code, stdout } = await hook.done;
    hook.end();
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ permission: "deny" });
  });

  it("does not hang on a writer that never completes its JSON nor closes stdin", async () => {
    const sb = makeSandbox();
    const hook = startHook(hooks, "AIC-block-no-verify.cjs", sb);
    hook.stdin.write('{"cursor_version": "3.22.12", "command": "git commit');
    // After its 5 s stdin limit the hook answers neutrally, then ends itself (a read is pending).
    const { signal, stdout } = await hook.done;
    hook.end();
    expect(signal).toBe("SIGKILL");
    expect(JSON.parse(stdout)).toEqual({ permission: "allow" });
    expect(String(readHealth(sb)[0]?.message)).toMatch(
      /^stdin stayed open; stdin is not valid JSON/,
    );
  });

  it("reads a valid multi-megabyte payload", async () => {
    const sb = makeSandbox();
    const prompt = "é".repeat(1_500_000) + "\nend";
    const r = await runHook(hooks, "AIC-before-submit-prewarm.cjs", sb, {
      ...fixture("beforeSubmitPrompt", sb.root),
      prompt,
    });
    expect(r.json).toEqual({ continue: true });
    expect(readFileSync(join(convDir(sb), `gen-${GEN}.prompt`), "utf8")).toBe(prompt);
  });
});

describe("AIC-session-init", () => {
  it("injects the critical reminders and the conversation id line", async () => {
    const sb = makeSandbox();
    mkdirSync(join(sb.root, ".cursor/rules"), { recursive: true });
    writeFileSync(
      join(sb.root, ".cursor/rules/AIC-architect.mdc"),
      [
        "---",
        "alwaysApply: true",
        "---",
        "# Architecture",
        "Intro text.",
        "## Critical reminders",
        "- Never import storage from the pipeline.",
        "* Validate at the boundary only;",
        "  keep the core pure.",
        "1. One interface per job.",
        "## Other section",
        "- not a reminder",
      ].join("\n"),
    );
    const r = await runHook(hooks, "AIC-session-init.cjs", sb, fixture("sessionStart", sb.root));
    const text = String(r.json?.additional_context);
    expect(text).toContain("- Never import storage from the pipeline.");
    expect(text).toContain("- Validate at the boundary only; keep the core pure.");
    expect(text).toContain("- One interface per job.");
    expect(text).not.toContain("not a reminder");
    expect(text).toContain(`AIC_CONVERSATION_ID=${CONV}`);
    expect(r.json).not.toHaveProperty("env");
    const models = readFileSync(join(sb.root, ".aic/session-models.jsonl"), "utf8");
    expect(JSON.parse(models)).toMatchObject({ conversationId: CONV, model: "claude-4.5-sonnet" });
  });

  it("uses a cloud agent's bc- id when there is no transcript", async () => {
    const sb = makeSandbox();
    const r = await runHook(
      hooks,
      "AIC-session-init.cjs",
      sb,
      fixture("sessionStart.cloud-no-transcript", sb.root),
    );
    expect(r.json).toEqual({ additional_context: "AIC_CONVERSATION_ID=bc-9d2f1e" });
  });
});

describe("AIC-before-submit-prewarm", () => {
  it("logs every prompt exactly, saves it privately, and never opens the gate", async () => {
    const sb = makeSandbox();
    const prompts = ["line one\nline two", "Ünïcödé “quotes” 🚀 and 中文", "plain"];
    for (const [i, prompt] of prompts.entries()) {
      const r = await runHook(hooks, "AIC-before-submit-prewarm.cjs", sb, {
        ...fixture("beforeSubmitPrompt", sb.root),
        generation_id: `gen-${i}`,
        prompt,
      });
      expect(r.json).toEqual({ continue: true });
    }
    const log = readFileSync(join(sb.root, ".aic/prompt-log.jsonl"), "utf8").trim().split("\n");
    expect(log.map((l) => JSON.parse(l).prompt)).toEqual(prompts);
    expect(JSON.parse(log[0]!)).toMatchObject({
      conversationId: CONV,
      generationId: "gen-0",
      model: "claude-4.5-sonnet",
      title: prompts[0],
    });
    const saved = join(convDir(sb), "gen-gen-1.prompt");
    expect(readFileSync(saved, "utf8")).toBe(prompts[1]);
    expect(mode(saved)).toBe(0o600);
    expect(mode(convDir(sb))).toBe(0o700);
    expect(mode(join(sb.aicHome, "state"))).toBe(0o700);
    expect(listFiles(convDir(sb)).filter((f) => f.endsWith(".compiled"))).toEqual([]);
    expect(existsSync(join(projectStateDir(sb.root, sb.env), "recent-compile.json"))).toBe(false);
  });
});

describe("AIC-inject-conversation-id", () => {
  it("completes aic_compile: editorId, conversation id, model, and the prompt for a weak intent", async () => {
    const sb = makeSandbox();
    await runHook(
      hooks,
      "AIC-before-submit-prewarm.cjs",
      sb,
      fixture("beforeSubmitPrompt", sb.root),
    );
    const base = fixture("preToolUse.mcp-aic-compile-server-prefixed", sb.root);
    const weak = await runHook(hooks, "AIC-inject-conversation-id.cjs", sb, {
      ...base,
      tool_input: { intent: "task", projectRoot: sb.root },
    });
    const prompt = String(fixture("beforeSubmitPrompt", sb.root).prompt);
    expect(weak.json).toEqual({
      permission: "allow",
      updated_input: {
        intent: prompt.trim(),
        projectRoot: sb.root,
        editorId: "cursor",
        conversationId: CONV,
        modelId: "claude-4.5-sonnet",
      },
    });
    const strong = await runHook(
      hooks,
      "AIC-inject-conversation-id.cjs",
      sb,
      fixture("preToolUse.mcp-aic-compile", sb.root),
    );
    expect((strong.json?.updated_input as Record<string, unknown>).intent).toBe(
      "fix login 500 on unicode password",
    );
  });

  it("falls back to AIC_CONVERSATION_ID and fills a missing projectRoot", async () => {
    const sb = makeSandbox();
    const p = fixture("preToolUse.mcp-aic-compile", sb.root);
    delete p.conversation_id;
    delete p.transcript_path;
    p.tool_input = { intent: "fix login 500 on unicode password" };
    const r = await runHook(hooks, "AIC-inject-conversation-id.cjs", sb, p, {
      env: { AIC_CONVERSATION_ID: "from-env" },
    });
    expect(r.json?.updated_input).toMatchObject({
      conversationId: "from-env",
      projectRoot: sb.root,
    });
  });

  it("adds the conversation id to aic_chat_summary and leaves other tools untouched", async () => {
    const sb = makeSandbox();
    const summary = await runHook(hooks, "AIC-inject-conversation-id.cjs", sb, {
      ...fixture("preToolUse.mcp-other-tool", sb.root),
      tool_name: "MCP:aic_chat_summary",
    });
    expect(summary.json).toEqual({ permission: "allow", updated_input: { conversationId: CONV } });
    const other = await runHook(
      hooks,
      "AIC-inject-conversation-id.cjs",
      sb,
      fixture("preToolUse.mcp-other-tool", sb.root),
    );
    expect(other.json).toEqual({ permission: "allow" });
    const grep = await runHook(
      hooks,
      "AIC-inject-conversation-id.cjs",
      sb,
      fixture("preToolUse.grep-mentions-aic_compile", sb.root),
    );
    expect(grep.json).toEqual({ permission: "allow" });
  });
});

describe("AIC-post-compile-context", () => {
  for (const name of ["postToolUse.mcp-aic-compile", "postToolUse.mcp-aic-compile.object-output"]) {
    it(`confirms a successful compile (${name}) and refreshes the gate`, async () => {
      const sb = makeSandbox();
      const r = await runHook(hooks, "AIC-post-compile-context.cjs", sb, fixture(name, sb.root));
      expect(r.json).toEqual({
        additional_context:
          "AIC compilation completed. Use the compiled context for your next response.",
      });
      expect(existsSync(join(convDir(sb), `gen-${GEN}.compiled`))).toBe(true);
      expect(existsSync(join(projectStateDir(sb.root, sb.env), "recent-compile.json"))).toBe(true);
      const compiles = readFileSync(join(convDir(sb), "compiles.jsonl"), "utf8");
      expect(JSON.parse(compiles)).toMatchObject({
        intent: "fix login 500 on unicode password",
        source: "tool",
      });
    });
  }

  it("answers {} for failed compiles and other tools", async () => {
    const sb = makeSandbox();
    const base = fixture("postToolUse.mcp-aic-compile", sb.root);
    for (const p of [
      { ...base, tool_output: { content: [{ type: "text", text: "boom" }], isError: true } },
      { ...base, tool_output: "" },
      { ...base, tool_output: { content: [] } },
      { ...base, tool_name: "MCP:aic_status" },
      { ...base, tool_name: "Grep", tool_input: { pattern: "aic_compile" } },
    ]) {
      expect((await runHook(hooks, "AIC-post-compile-context.cjs", sb, p)).json).toEqual({});
    }
    expect(existsSync(join(projectStateDir(sb.root, sb.env), "recent-compile.json"))).toBe(false);
    expect(readHealth(sb).map((h) => [h.stage, h.message])).toEqual([
      ["aic_compile failed", "boom"],
    ]);
  });
});

describe("AIC-block-no-verify", () => {
  const cases: [string, "allow" | "deny"][] = [
    ["beforeShellExecution.git-no-verify", "deny"],
    ["beforeShellExecution.git-n", "deny"],
    ["beforeShellExecution.git-log-n", "allow"],
    ["beforeShellExecution.git-message-mentions-no-verify", "allow"],
  ];
  for (const [name, verdict] of cases) {
    it(`${name} → ${verdict}`, async () => {
      const sb = makeSandbox();
      const r = await runHook(hooks, "AIC-block-no-verify.cjs", sb, fixture(name, sb.root));
      expect(r.json?.permission).toBe(verdict);
      if (verdict === "deny") {
        expect(r.json?.user_message).toBeTruthy();
        expect(r.json?.agent_message).toMatch(/git hooks/);
      }
    });
  }
});

describe("AIC-after-file-edit-tracker", () => {
  it("records both payload shapes, project-relative", async () => {
    const sb = makeSandbox();
    for (const name of ["afterFileEdit", "afterFileEdit.legacy-files-array"])
      expect(
        (await runHook(hooks, "AIC-after-file-edit-tracker.cjs", sb, fixture(name, sb.root))).json,
      ).toEqual({});
    const lines = readFileSync(join(convDir(sb), "edited-files.jsonl"), "utf8")
      .trim()
      .split("\n");
    expect([...new Set(lines.map((l) => JSON.parse(l).path))]).toEqual([
      "src/auth/service.ts",
      "src/auth/routes.ts",
    ]);
  });

  it("loses no edit when 16 edits arrive at once", async () => {
    const sb = makeSandbox();
    const base = fixture("afterFileEdit", sb.root);
    const files = Array.from({ length: 16 }, (_, i) => `src/f${i}.ts`);
    await Promise.all(
      files.map((f) =>
        runHook(hooks, "AIC-after-file-edit-tracker.cjs", sb, { ...base, file_path: f }),
      ),
    );
    const lines = readFileSync(join(convDir(sb), "edited-files.jsonl"), "utf8")
      .trim()
      .split("\n");
    expect(lines.map((l) => JSON.parse(l).path).sort()).toEqual([...files].sort());
  });
});

describe("AIC-session-end", () => {
  it("removes only this session's state and logs the session", async () => {
    const sb = makeSandbox();
    const other = "other-conversation";
    for (const conv of [CONV, other])
      await runHook(hooks, "AIC-before-submit-prewarm.cjs", sb, {
        ...fixture("beforeSubmitPrompt", sb.root),
        conversation_id: conv,
      });
    expect(existsSync(convDir(sb))).toBe(true);
    const r = await runHook(hooks, "AIC-session-end.cjs", sb, fixture("sessionEnd", sb.root));
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    expect(existsSync(convDir(sb))).toBe(false);
    expect(existsSync(join(convDir(sb, other), `gen-${GEN}.prompt`))).toBe(true);
    const log = JSON.parse(readFileSync(join(sb.root, ".aic/session-log.jsonl"), "utf8"));
    expect(log).toMatchObject({
      sessionId: CONV,
      reason: "completed",
      durationMs: 1843000,
      finalStatus: "completed",
    });
  });
});

describe("AIC-pre-compact station", () => {
  it("writes the station, a receipt with the host's numbers, and the logs on a host fire", async () => {
    const sb = makeSandbox();
    await runHook(
      hooks,
      "AIC-post-compile-context.cjs",
      sb,
      fixture("postToolUse.mcp-aic-compile", sb.root),
    );
    await runHook(hooks, "AIC-after-file-edit-tracker.cjs", sb, fixture("afterFileEdit", sb.root));
    await runHook(
      hooks,
      "AIC-before-submit-prewarm.cjs",
      sb,
      fixture("beforeSubmitPrompt", sb.root),
    );
    const r = await runHook(hooks, "AIC-pre-compact.cjs", sb, fixture("preCompact", sb.root));
    expect(Object.keys(r.json ?? {})).toEqual(["user_message"]);
    expect(r.json?.user_message).toMatch(/\.aic\/STATION\.md/);

    const station = readFileSync(join(sb.root, ".aic/STATION.md"), "utf8");
    expect(station).toContain(`Conversation: ${CONV}`);
    expect(station).toContain("event_class=cursor-host-precompact");
    expect(station).toContain("182800 tokens of a 200000-token window (91.4% used)");
    expect(station).toContain("fix login 500 on unicode password");
    expect(station).toContain("- src/auth/service.ts");
    expect(station).toContain("Fix the login bug");
    expect(readFileSync(join(sb.root, `.aic/stations/${CONV}.md`), "utf8")).toBe(station);

    const receipt = JSON.parse(
      readFileSync(join(sb.root, `.aic/cursor-receipts/${CONV}.json`), "utf8"),
    );
    expect(receipt).toMatchObject({
      event_class: "cursor-host-precompact",
      conversation_id: CONV,
      generation_id: GEN,
      context_tokens: 182800,
      context_usage_percent: 91.4,
      context_window_size: 200000,
    });
    const hookLog = JSON.parse(readFileSync(join(sb.root, ".aic/cursor-hook.log"), "utf8"));
    expect(hookLog).toMatchObject({ session_id: CONV, context_tokens: 182800, generation_id: GEN });
    const invoke = readFileSync(join(sb.root, ".aic/cursor-hook-invoke.log"), "utf8");
    expect(invoke).toMatch(
      /event=preCompact event_class=cursor-host-precompact .* js=\/.*AIC-pre-compact\.cjs\n$/,
    );
  });

  it("keeps the notes the agent added to this conversation's station", async () => {
    const sb = makeSandbox();
    await runHook(hooks, "AIC-pre-compact.cjs", sb, fixture("preCompact", sb.root));
    const file = join(sb.root, ".aic/STATION.md");
    writeFileSync(
      file,
      readFileSync(file, "utf8") + "\n## Unfinished\n- migrate the session table\n",
    );
    await runHook(hooks, "AIC-pre-compact.cjs", sb, fixture("preCompact", sb.root));
    const station = readFileSync(file, "utf8");
    expect(station.match(/## Unfinished\n- migrate the session table/g)).toHaveLength(1);
    expect(station.match(/## Next step/g)).toHaveLength(1);
    // Another conversation's station does not inherit them.
    await runHook(hooks, "AIC-pre-compact.cjs", sb, {
      ...fixture("preCompact", sb.root),
      conversation_id: "other",
    });
    expect(readFileSync(file, "utf8")).not.toContain("## Unfinished");
  });

  it("a synthetic event writes the station and invoke line but no receipt; never estimates", async () => {
    const sb = makeSandbox();
    const r = await runHook(
      hooks,
      "AIC-pre-compact.cjs",
      sb,
      fixture("preCompact.synthetic-cursor", sb.root),
    );
    expect(r.json?.user_message).toMatch(/cursor-precompact-synthetic/);
    expect(existsSync(join(sb.root, ".aic/cursor-receipts"))).toBe(false);
    expect(existsSync(join(sb.root, ".aic/cursor-hook.log"))).toBe(false);
    expect(readFileSync(join(sb.root, ".aic/STATION.md"), "utf8")).toContain(
      "Context at compaction: 1 tokens\n",
    );
    expect(readFileSync(join(sb.root, ".aic/cursor-hook-invoke.log"), "utf8")).toMatch(
      /event_class=cursor-precompact-synthetic/,
    );
  });

  it("ignores a foreign minimal payload unless invoked with the synthetic flag", async () => {
    const sb = makeSandbox();
    const minimal = fixture("preCompact.synthetic-minimal", sb.root);
    expect((await runHook(hooks, "AIC-pre-compact.cjs", sb, minimal)).stdout).toBe("");
    expect(listFiles(sb.root)).toEqual([]);
    const r = await runHook(hooks, "AIC-pre-compact.cjs", sb, minimal, {
      args: ["--event-class=cursor-precompact-synthetic"],
    });
    expect(r.json?.user_message).toMatch(/STATION\.md/);
    expect(existsSync(join(sb.root, ".aic/STATION.md"))).toBe(true);
    expect(existsSync(join(sb.root, ".aic/cursor-receipts"))).toBe(false);
  });
});

describe("Cursor payload recognition", () => {
  it("accepts a payload without cursor_version only for a conversation Cursor stamped", async () => {
    const sb = makeSandbox();
    const unstamped = (conv: string) => {
      const p: Record<string, unknown> = {
        ...fixture("beforeSubmitPrompt", sb.root),
        conversation_id: conv,
      };
      delete p.cursor_version;
      return p;
    };
    expect(
      (await runHook(hooks, "AIC-before-submit-prewarm.cjs", sb, unstamped(CONV))).stdout,
    ).toBe("");
    expect(existsSync(join(sb.root, ".aic/prompt-log.jsonl"))).toBe(false);
    await runHook(hooks, "AIC-session-init.cjs", sb, fixture("sessionStart", sb.root));
    expect(
      (await runHook(hooks, "AIC-before-submit-prewarm.cjs", sb, unstamped(CONV))).json,
    ).toEqual({ continue: true });
    expect(existsSync(join(sb.root, ".aic/prompt-log.jsonl"))).toBe(true);
    expect(
      (await runHook(hooks, "AIC-before-submit-prewarm.cjs", sb, unstamped("another"))).stdout,
    ).toBe("");
  });
});

describe("project root resolution", () => {
  it("uses workspace_roots when CURSOR_PROJECT_DIR is unset, else cwd", async () => {
    const sb = makeSandbox();
    const elsewhere = join(sb.home, "elsewhere");
    mkdirSync(elsewhere);
    const env = { CURSOR_PROJECT_DIR: "" };
    await runHook(
      hooks,
      "AIC-before-submit-prewarm.cjs",
      sb,
      fixture("beforeSubmitPrompt", sb.root),
      { env, cwd: elsewhere },
    );
    expect(existsSync(join(sb.root, ".aic/prompt-log.jsonl"))).toBe(true);
    const p = fixture("beforeSubmitPrompt", sb.root);
    delete p.workspace_roots;
    await runHook(hooks, "AIC-before-submit-prewarm.cjs", sb, p, { env, cwd: elsewhere });
    expect(existsSync(join(elsewhere, ".aic/prompt-log.jsonl"))).toBe(true);
  });

  it("stays out of the way without a project folder (cwd at home)", async () => {
    const sb = makeSandbox();
    const env = { CURSOR_PROJECT_DIR: "" };
    const p = fixture("beforeSubmitPrompt", sb.root);
    delete p.workspace_roots;
    const prewarm = await runHook(hooks, "AIC-before-submit-prewarm.cjs", sb, p, {
      env,
      cwd: sb.home,
    });
    expect(prewarm.json).toEqual({ continue: true });
    const gate = await runHook(
      hooks,
      "AIC-require-aic-compile.cjs",
      sb,
      { ...fixture("preToolUse.read", sb.root), workspace_roots: [] },
      { env, cwd: sb.home },
    );
    expect(gate.json).toEqual({ permission: "allow" });
    expect(listFiles(sb.home)).toEqual([]);
  });
});
