/**
 * The canonical list of AIC's Cursor hook scripts and their hooks.json entries. The build bundles
 * one `dist/hooks/<script>` per script; the installer deploys exactly these and registers exactly
 * these entries (13 entries across 11 events). Seed: cursor-integration-layer §5 and §10, plus the
 * preCompact station.
 */

export type CursorHookEvent =
  | "sessionStart"
  | "beforeSubmitPrompt"
  | "preToolUse"
  | "postToolUse"
  | "beforeShellExecution"
  | "afterFileEdit"
  | "stop"
  | "sessionEnd"
  | "subagentStart"
  | "subagentStop"
  | "preCompact";

/** One hooks.json entry, minus the `command`, which the installer renders for its scope. */
export interface HookRegistration {
  event: CursorHookEvent;
  script: string;
  /** Extra fields of the entry, in the order they are written after `command`. */
  fields?: Record<string, string | number | boolean>;
}

export const HOOK_SCRIPTS = [
  "AIC-session-init.cjs",
  "AIC-compile-context.cjs",
  "AIC-before-submit-prewarm.cjs",
  "AIC-require-aic-compile.cjs",
  "AIC-inject-conversation-id.cjs",
  "AIC-post-compile-context.cjs",
  "AIC-block-no-verify.cjs",
  "AIC-after-file-edit-tracker.cjs",
  "AIC-stop-quality-check.cjs",
  "AIC-session-end.cjs",
  "AIC-subagent-compile.cjs",
  "AIC-subagent-stop.cjs",
  // Deployed beside the hooks but not registered: subagentStart's model-id helper.
  "AIC-subagent-start-model-id.cjs",
  "AIC-pre-compact.cjs",
] as const;

export type HookScript = (typeof HOOK_SCRIPTS)[number];

/** In the order they appear under each event in hooks.json. */
export const HOOK_REGISTRATIONS: readonly HookRegistration[] = [
  { event: "sessionStart", script: "AIC-session-init.cjs" },
  { event: "sessionStart", script: "AIC-compile-context.cjs", fields: { timeout: 20 } },
  { event: "beforeSubmitPrompt", script: "AIC-before-submit-prewarm.cjs" },
  { event: "preToolUse", script: "AIC-require-aic-compile.cjs", fields: { failClosed: true } },
  { event: "preToolUse", script: "AIC-inject-conversation-id.cjs", fields: { matcher: "MCP" } },
  { event: "postToolUse", script: "AIC-post-compile-context.cjs", fields: { matcher: "MCP" } },
  { event: "beforeShellExecution", script: "AIC-block-no-verify.cjs", fields: { matcher: "git" } },
  { event: "afterFileEdit", script: "AIC-after-file-edit-tracker.cjs" },
  { event: "stop", script: "AIC-stop-quality-check.cjs", fields: { loop_limit: 5 } },
  { event: "sessionEnd", script: "AIC-session-end.cjs" },
  { event: "subagentStart", script: "AIC-subagent-compile.cjs" },
  { event: "subagentStop", script: "AIC-subagent-stop.cjs" },
  { event: "preCompact", script: "AIC-pre-compact.cjs" },
];

/** Where the build puts the bundled scripts, relative to the AIC package root. */
export const BUILT_HOOKS_DIR = "dist/hooks";
