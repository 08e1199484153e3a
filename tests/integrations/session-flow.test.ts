/**
 * One Cursor session end to end, hook by hook in the order Cursor fires them, with the state each
 * hook leaves for the next: the walk-through of how the hooks work together.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { conversationStateDir } from "../../src/integrations/shared/hook-state.js";
import {
  buildHooks,
  fixture,
  makeSandbox,
  readHealth,
  runHook,
  standInPackage,
} from "./helpers.js";

const CONV = "6f1c2a7e-3b1d-4c55-9a0e-2f8d7c1b9e10";
// Top-level await: every test in the file runs against the same private bundles.
const hooks = await buildHooks();

it("a session: start, prompt, gate, compile, edit, stop, compaction, end", async () => {
  const sb = makeSandbox();
  // A stand-in compilation service (the real one is exercised in compiling-hooks.test.ts).
  const pkg = standInPackage(sb).root;
  const env = { AIC_PACKAGE_ROOT: pkg };
  const run = (script: string, payload: Record<string, unknown>) =>
    runHook(hooks, script, sb, payload, { env });

  const init = await run("AIC-session-init.cjs", fixture("sessionStart", sb.root));
  expect(init.json?.additional_context).toContain(`AIC_CONVERSATION_ID=${CONV}`);
  const compiled = await run("AIC-compile-context.cjs", fixture("sessionStart", sb.root));
  expect(compiled.json?.env).toMatchObject({ AIC_CONVERSATION_ID: CONV });

  const prompt = String(fixture("beforeSubmitPrompt", sb.root).prompt);
  expect(
    (await run("AIC-before-submit-prewarm.cjs", fixture("beforeSubmitPrompt", sb.root))).json,
  ).toEqual({ continue: true });

  // The agent reaches for a tool first: denied, told to compile the user's words.
  const denied = await run("AIC-require-aic-compile.cjs", fixture("preToolUse.read", sb.root));
  expect(denied.json?.permission).toBe("deny");
  expect(String(denied.json?.agent_message)).toContain(JSON.stringify(prompt));

  // It calls aic_compile with a lazy intent: the gate opens, the inject hook fills in the rest.
  const compileCall = {
    ...fixture("preToolUse.mcp-aic-compile", sb.root),
    tool_input: { intent: "task" },
  };
  expect((await run("AIC-require-aic-compile.cjs", compileCall)).json).toEqual({
    permission: "allow",
  });
  const injected = await run("AIC-inject-conversation-id.cjs", compileCall);
  expect(injected.json?.updated_input).toEqual({
    intent: prompt,
    editorId: "cursor",
    conversationId: CONV,
    modelId: "claude-4.5-sonnet",
    projectRoot: sb.root,
  });
  const post = await run("AIC-post-compile-context.cjs", {
    ...fixture("postToolUse.mcp-aic-compile", sb.root),
    tool_input: injected.json?.updated_input,
    tool_output: {
      content: [
        { type: "text", text: "# Task\n\nFix\n\n# Context\n\n## src/auth/service.ts (full)\n" },
      ],
    },
  });
  expect(post.json?.additional_context).toMatch(/AIC compilation completed/);

  expect(
    (await run("AIC-require-aic-compile.cjs", fixture("preToolUse.read", sb.root))).json,
  ).toEqual({ permission: "allow" });
  expect(
    (await run("AIC-block-no-verify.cjs", fixture("beforeShellExecution.git-no-verify", sb.root)))
      .json?.permission,
  ).toBe("deny");
  await run("AIC-after-file-edit-tracker.cjs", fixture("afterFileEdit", sb.root));
  // The edited file does not exist in this project and there are no local linters: quiet stop.
  expect((await run("AIC-stop-quality-check.cjs", fixture("stop", sb.root))).json).toEqual({});

  const compact = await run("AIC-pre-compact.cjs", fixture("preCompact", sb.root));
  expect(compact.json?.user_message).toMatch(/STATION\.md/);
  const station = readFileSync(join(sb.root, ".aic/STATION.md"), "utf8");
  expect(station).toContain("top files: src/auth/service.ts");
  expect(station).toContain("- src/auth/service.ts");

  const end = await run("AIC-session-end.cjs", fixture("sessionEnd", sb.root));
  expect(end.stdout).toBe("");
  expect(existsSync(conversationStateDir(sb.root, CONV, sb.env))).toBe(false);
  expect(readFileSync(join(sb.root, ".aic/prompt-log.jsonl"), "utf8")).toContain(
    JSON.stringify(prompt),
  );
  expect(readHealth(sb)).toEqual([]);
});
