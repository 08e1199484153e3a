/**
 * The fail-closed compile gate with real hook processes: the seed's scenarios plus the traps it
 * fixes (a grep that mentions aic_compile, a submitted prompt, sibling races in a parallel batch).
 */
import { existsSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  markGenerationCompiled,
  markProjectCompiled,
} from "../../src/integrations/shared/gate-state.js";
import { conversationStateDir, projectStateDir } from "../../src/integrations/shared/hook-state.js";
import {
  buildHooks,
  fixture,
  makeSandbox,
  readHealth,
  runHook,
  startHook,
  type Sandbox,
} from "./helpers.js";

const GATE = "AIC-require-aic-compile.cjs";
const CONV = "6f1c2a7e-3b1d-4c55-9a0e-2f8d7c1b9e10";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// Top-level await: every test in the file runs against the same private bundles.
const hooks = await buildHooks();

function tool(sb: Sandbox, name: string, generation?: string): Record<string, unknown> {
  const p = fixture(name, sb.root);
  if (generation) p.generation_id = generation;
  return p;
}
const gate = (sb: Sandbox, payload: Record<string, unknown> | string) =>
  runHook(hooks, GATE, sb, payload);
const config = (sb: Sandbox, cfg: Record<string, unknown>) =>
  writeFileSync(join(sb.root, "aic.config.json"), JSON.stringify(cfg));

describe("compile gate", () => {
  it("denies until aic_compile, offering the user's exact prompt as the intent", async () => {
    const sb = makeSandbox();
    const prompt = "Fix the 500 on “é” passwords\n\tsee src/auth/service.ts";
    await runHook(hooks, "AIC-before-submit-prewarm.cjs", sb, {
      ...fixture("beforeSubmitPrompt", sb.root),
      prompt,
    });
    const denied = await gate(sb, tool(sb, "preToolUse.read"));
    expect(denied.json).toMatchObject({ permission: "deny" });
    expect(String(denied.json?.agent_message)).toContain(
      JSON.stringify({ intent: prompt.trim(), projectRoot: sb.root }),
    );
    expect(denied.json?.user_message).toBeTruthy();

    // A submitted prompt did not open it, nor does a grep for "aic_compile".
    expect(
      (await gate(sb, tool(sb, "preToolUse.grep-mentions-aic_compile"))).json?.permission,
    ).toBe("deny");
    expect((await gate(sb, tool(sb, "preToolUse.shell"))).json?.permission).toBe("deny");

    expect((await gate(sb, tool(sb, "preToolUse.mcp-aic-compile"))).json).toEqual({
      permission: "allow",
    });
    expect((await gate(sb, tool(sb, "preToolUse.read"))).json).toEqual({ permission: "allow" });
    expect((await gate(sb, tool(sb, "preToolUse.shell"))).json).toEqual({ permission: "allow" });
  });

  it("recognises the server-prefixed tool name", async () => {
    const sb = makeSandbox();
    expect(
      (await gate(sb, tool(sb, "preToolUse.mcp-aic-compile-server-prefixed"))).json?.permission,
    ).toBe("allow");
    expect((await gate(sb, tool(sb, "preToolUse.read"))).json?.permission).toBe("allow");
  });

  it("never opens for input that merely mentions aic_compile", async () => {
    const sb = makeSandbox();
    const lookalikes = [
      {
        ...tool(sb, "preToolUse.shell"),
        tool_input: { command: "echo MCP:aic_compile mcp__aic__aic_compile" },
      },
      { ...tool(sb, "preToolUse.read"), tool_input: { path: "aic_compile" } },
      { ...tool(sb, "preToolUse.read"), tool_name: "Read aic_compile" },
      { ...tool(sb, "preToolUse.read"), tool_name: "MCP:aic_compile_spec" },
    ];
    for (const p of lookalikes) expect((await gate(sb, p)).json?.permission).toBe("deny");
    expect(existsSync(join(projectStateDir(sb.root, sb.env), "recent-compile.json"))).toBe(false);
  });

  it("lets a parallel batch through when aic_compile races the other tools", async () => {
    for (const round of [1, 2]) {
      const sb = makeSandbox();
      const gen = `batch-${round}`;
      // All four processes start together, as Cursor starts a parallel batch: the others may
      // check the gate before the compile's process has written its marker.
      const results = await Promise.all([
        gate(sb, tool(sb, "preToolUse.mcp-aic-compile", gen)),
        gate(sb, tool(sb, "preToolUse.read", gen)),
        gate(sb, tool(sb, "preToolUse.shell", gen)),
        gate(sb, tool(sb, "preToolUse.grep-mentions-aic_compile", gen)),
      ]);
      expect(results.map((r) => r.json?.permission)).toEqual(["allow", "allow", "allow", "allow"]);
    }
  });

  it("lets a call through when the sibling's marker appears while the gate polls", async () => {
    const sb = makeSandbox();
    const hook = startHook(hooks, GATE, sb);
    // The hook starts and waits for its input; it checks the gate once the JSON is complete.
    const payload = JSON.stringify(tool(sb, "preToolUse.read", "polled"));
    hook.stdin.write(payload.slice(0, -1));
    await sleep(1000);
    hook.stdin.end(payload.slice(-1));
    await sleep(100);
    markGenerationCompiled(conversationStateDir(sb.root, CONV, sb.env), "polled");
    expect(JSON.parse((await hook.done).stdout)).toEqual({ permission: "allow" });
  });

  it("opens for a fresh project compile in another generation, not for a stale one", async () => {
    const sb = makeSandbox();
    const now = Date.now();
    markProjectCompiled(sb.root, { conversationId: "c", generationId: "g" }, sb.env, now - 301_000);
    expect((await gate(sb, tool(sb, "preToolUse.read", "new-gen"))).json?.permission).toBe("deny");
    markProjectCompiled(sb.root, {}, sb.env, now - 10_000);
    expect((await gate(sb, tool(sb, "preToolUse.read", "new-gen"))).json?.permission).toBe("allow");

    config(sb, { compileRecencyWindowSecs: 5 });
    expect((await gate(sb, tool(sb, "preToolUse.read", "new-gen"))).json?.permission).toBe("deny");

    // Another project's compile opens nothing here.
    const other = makeSandbox();
    markProjectCompiled(other.root, {}, sb.env, now);
    expect((await gate(sb, tool(sb, "preToolUse.read", "new-gen"))).json?.permission).toBe("deny");
  });

  it("is bypassed only when devMode and skipCompileGate are both true", async () => {
    const sb = makeSandbox();
    config(sb, { devMode: true });
    expect((await gate(sb, tool(sb, "preToolUse.read"))).json?.permission).toBe("deny");
    config(sb, { skipCompileGate: true });
    expect((await gate(sb, tool(sb, "preToolUse.read"))).json?.permission).toBe("deny");
    config(sb, { devMode: true, skipCompileGate: true });
    expect((await gate(sb, tool(sb, "preToolUse.read"))).json).toEqual({ permission: "allow" });
    expect((await gate(sb, "")).json).toEqual({ permission: "allow" });
    // The bypass writes no gate state.
    expect(existsSync(join(projectStateDir(sb.root, sb.env), "recent-compile.json"))).toBe(false);
  });

  it("fails closed with the reason when its own state cannot be written", async () => {
    const sb = makeSandbox();
    writeFileSync(sb.aicHome, "not a folder"); // AIC_HOME is a file: every state write fails
    const r = await gate(sb, tool(sb, "preToolUse.mcp-aic-compile"));
    expect(r.json).toMatchObject({ permission: "deny" });
    expect(String(r.json?.agent_message)).toMatch(/could not check it: .*(ENOTDIR|EEXIST)/);
    expect(String(r.json?.agent_message)).toMatch(/skipCompileGate/);
    const prewarm = await runHook(
      hooks,
      "AIC-before-submit-prewarm.cjs",
      sb,
      fixture("beforeSubmitPrompt", sb.root),
    );
    expect(prewarm.json).toEqual({ continue: true });
  });

  it("fails closed on an invalid config and says so in the health log", async () => {
    const sb = makeSandbox();
    writeFileSync(join(sb.root, "aic.config.json"), '{"devMode": true, "skipCompileGate": "yes"}');
    expect((await gate(sb, tool(sb, "preToolUse.read"))).json?.permission).toBe("deny");
    expect(readHealth(sb).some((h) => /skipCompileGate/.test(String(h.message)))).toBe(true);
  });

  it("sweeps stale generation state at most every 10 minutes and keeps the recency marker", async () => {
    const sb = makeSandbox();
    const conv = conversationStateDir(sb.root, "old-conv", sb.env);
    mkdirSync(conv, { recursive: true });
    const old = new Date(Date.now() - 3 * 3600_000);
    const stale = join(conv, "gen-x.prompt");
    const fresh = join(conv, "gen-y.prompt");
    writeFileSync(stale, "old");
    writeFileSync(fresh, "new");
    utimesSync(stale, old, old);
    markProjectCompiled(sb.root, {}, sb.env, Date.now() - 3600_000);
    await gate(sb, tool(sb, "preToolUse.mcp-aic-compile"));
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    expect(existsSync(join(projectStateDir(sb.root, sb.env), "recent-compile.json"))).toBe(true);

    const stale2 = join(conv, "gen-z.prompt");
    writeFileSync(stale2, "old");
    utimesSync(stale2, old, old);
    await gate(sb, tool(sb, "preToolUse.mcp-aic-compile"));
    expect(existsSync(stale2)).toBe(true); // throttled
  });
});
