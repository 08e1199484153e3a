/**
 * Cursor's known hook events: the one place the list lives. Cursor may ignore a whole hooks.json
 * that names an event it does not know, so AIC never writes an event outside this list.
 * Source: https://cursor.com/docs/hooks.md (agent and Tab hooks).
 */
export const CURSOR_HOOK_EVENTS = [
  "sessionStart",
  "sessionEnd",
  "beforeSubmitPrompt",
  "preToolUse",
  "postToolUse",
  "postToolUseFailure",
  "beforeShellExecution",
  "afterShellExecution",
  "beforeMCPExecution",
  "afterMCPExecution",
  "beforeReadFile",
  "afterFileEdit",
  "afterAgentResponse",
  "afterAgentThought",
  "stop",
  "subagentStart",
  "subagentStop",
  "preCompact",
  "beforeTabFileRead",
  "afterTabFileEdit",
] as const;

export type KnownHookEvent = (typeof CURSOR_HOOK_EVENTS)[number];

const KNOWN = new Set<string>(CURSOR_HOOK_EVENTS);

export function isKnownHookEvent(name: string): name is KnownHookEvent {
  return KNOWN.has(name);
}
