/**
 * The fail-closed compile gate (seed §7.3, with DESIGN trap 5 fixed): every tool waits until the
 * agent has called aic_compile in this generation, or the project compiled within the recency
 * window. Only an aic_compile call, recognised by the tool's identity, opens it.
 */
import type { ProjectConfig } from "../../config/project-config.js";
import {
  generationCompiled,
  markGenerationCompiled,
  markProjectCompiled,
  msSinceProjectCompile,
  readPrompt,
} from "../shared/gate-state.js";
import type { HookContext, HookOutput } from "../shared/run-hook.js";
import { promptAsIntent } from "./intent.js";
import { isAicTool } from "./tool-identity.js";

export const SIBLING_POLL_INTERVAL_MS = 20;
export const SIBLING_POLL_TOTAL_MS = 500;

export const ALLOW: HookOutput = { permission: "allow" };

export function bypassActive(config: ProjectConfig): boolean {
  return config.devMode === true && config.skipCompileGate === true;
}

export type GateContext = Pick<
  HookContext,
  "payload" | "projectRoot" | "conversationId" | "generationId" | "convDir" | "env"
> & { windowSecs: number };

function isOpen(g: GateContext): boolean {
  if (generationCompiled(g.convDir, g.generationId)) return true;
  const since = msSinceProjectCompile(g.projectRoot, g.env);
  return since !== undefined && since <= g.windowSecs * 1000;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function decide(g: GateContext): Promise<HookOutput> {
  if (isAicTool(g.payload, "aic_compile")) {
    markGenerationCompiled(g.convDir, g.generationId);
    markProjectCompiled(
      g.projectRoot,
      { conversationId: g.conversationId, generationId: g.generationId },
      g.env,
    );
    return ALLOW;
  }
  if (isOpen(g)) return ALLOW;
  // A sibling aic_compile in the same parallel batch may be writing its marker right now.
  const until = Date.now() + SIBLING_POLL_TOTAL_MS;
  while (Date.now() < until) {
    await sleep(SIBLING_POLL_INTERVAL_MS);
    if (isOpen(g)) return ALLOW;
  }
  return denyForMissingCompile(g);
}

export function denyForMissingCompile(g: GateContext): HookOutput {
  const prompt = readPrompt(g.convDir, g.generationId);
  const args = {
    intent: prompt ? promptAsIntent(prompt) : "<the user's request, in their words>",
    projectRoot: g.projectRoot,
  };
  return {
    permission: "deny",
    user_message: "AIC: the agent must call aic_compile before using tools in this project.",
    agent_message: [
      "Blocked by the AIC compile gate: call the aic_compile MCP tool first, then retry this tool.",
      `Use these arguments: ${JSON.stringify(args)}`,
      `The gate opens for this turn once aic_compile runs, and for ${g.windowSecs} s project-wide.`,
    ].join("\n"),
  };
}

/** Deny when the gate cannot decide (unreadable input, internal error): fail closed, but say how to get unstuck. */
export function denyUnchecked(reason: string, projectRoot: string): HookOutput {
  return {
    permission: "deny",
    user_message: `AIC compile gate could not check this tool call (${reason}) and denied it to stay safe.`,
    agent_message: [
      `The AIC compile gate denied this tool call because it could not check it: ${reason}.`,
      `Call aic_compile with your intent and projectRoot ${JSON.stringify(projectRoot)}, then retry.`,
      "If every call is denied, ask the user to run `aic doctor`; as an emergency bypass they can set",
      '"devMode": true and "skipCompileGate": true in aic.config.json (remove it afterwards).',
    ].join("\n"),
  };
}
