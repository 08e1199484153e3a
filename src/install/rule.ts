/**
 * The trigger rule `.cursor/rules/AIC.mdc` (seed §14): always applied, it tells the model to call
 * `aic_compile` before anything else on every message. It is stamped with AIC's version and
 * rewritten only when AIC wrote the current bytes and they differ (a new version); a rule the
 * user edited is kept and reported unless --force.
 */
import { readBytes } from "./files.js";
import { Plan, writtenByAic } from "./plan.js";
import type { InstallState } from "./state.js";
import { recordKey, type InstallTargets } from "./targets.js";

export function renderRule(aicVersion: string): Buffer {
  return Buffer.from(
    `---
description: AIC compiles the project context for each request; call aic_compile first
alwaysApply: true
---
<!-- aic-version: ${aicVersion} (written by \`aic install cursor\`; edits are kept, \`aic install cursor --force\` replaces them) -->

# AIC: compile context first

On **every** user message, before any other tool call and before answering, call the
\`aic_compile\` tool of the \`aic\` MCP server:

- \`intent\`: the user's request in their own words (the whole message for short ones).
- \`projectRoot\`: the absolute path of this workspace.
- \`conversationId\`: pass it when you know it (the hooks inject it otherwise).

Read the compiled context it returns before you open files yourself: it holds the files, symbols
and regions most relevant to the request, within a token budget and with secrets redacted. Open
further files only when the compiled context is not enough.

When the request changes direction mid-conversation, call \`aic_compile\` again with the new intent.

Tools are blocked until \`aic_compile\` has run for the current message (the preToolUse gate); if a
tool call is denied with a message about AIC, call \`aic_compile\` with the suggested intent and
retry.
`,
    "utf8",
  );
}

const VERSION_STAMP = /<!-- aic-version: ([^\s]+)/;

/** The AIC version a rule file claims to come from, if any. */
export function ruleVersion(bytes: Buffer): string | undefined {
  return VERSION_STAMP.exec(bytes.toString("utf8"))?.[1];
}

export function planRule(
  plan: Plan,
  targets: InstallTargets,
  state: InstallState,
  aicVersion: string,
  force: boolean,
): void {
  const path = targets.ruleFile;
  if (!path) return;
  const key = recordKey(targets.root, path);
  const before = readBytes(path);
  const after = renderRule(aicVersion);
  const ours = before === null || before.equals(after) || writtenByAic(state.files[key], before);
  if (!ours && !force) {
    // An existing record stays as it is, so uninstall reports the drift.
    plan.kept.push(
      `kept ${key}: it was edited or written by someone else (rerun with --force to replace it ` +
        `with AIC ${aicVersion}'s rule)`,
    );
    return;
  }
  const note =
    before === null
      ? `added ${key}`
      : `updated ${key} (${ruleVersion(before) ?? "unstamped"} -> ${aicVersion})`;
  plan.own({ key, path, role: "rule", before, after }, note);
}
