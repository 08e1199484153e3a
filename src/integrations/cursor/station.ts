/**
 * The pre-compact station (station seed, "preCompact"): before Cursor compacts a conversation,
 * write down what the agent needs to resume, because Cursor injects nothing after a compaction.
 *
 *   .aic/STATION.md                       the latest station (the agent is told to read it)
 *   .aic/stations/<conversation>.md       one per conversation, so parallel chats keep theirs
 *   .aic/cursor-receipts/<conversation>.json  host fires only: usage exactly as Cursor sent it
 *   .aic/cursor-hook.log                  host fires only: one JSON line per receipt
 *   .aic/cursor-hook-invoke.log           every run: one line (event, class, script path)
 */
import { appendFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { readJsonl } from "../../shared/jsonl.js";
import { PRIVATE_FILE_MODE, projectAicDir } from "../../shared/paths.js";
import { LAST_COMPILED_PROMPT, PROMPT_LOG, projectFile } from "../../shared/project-logs.js";
import type { CompileRecord } from "../shared/compile-history.js";
import { ensureStateDir, readTextIfExists, writeFileAtomic } from "../shared/hook-state.js";
import { safeKey } from "../shared/ids.js";
import { str, type Payload } from "../shared/payload.js";

export const HOST_CLASS = "cursor-host-precompact";
export const SYNTHETIC_CLASS = "cursor-precompact-synthetic";
export type EventClass = typeof HOST_CLASS | typeof SYNTHETIC_CLASS;
export const SYNTHETIC_FLAG = `--event-class=${SYNTHETIC_CLASS}`;

/**
 * A host fire carries a generation id, a numeric usage percent, and the hook name or trigger.
 * A token count or `trigger: auto` alone is not proof that Cursor fired the hook.
 */
export function classifyPreCompact(p: Payload, argv: string[]): EventClass {
  if (argv.includes(SYNTHETIC_FLAG)) return SYNTHETIC_CLASS;
  const host =
    str(p.generation_id) !== undefined &&
    typeof p.context_usage_percent === "number" &&
    (p.hook_event_name === "preCompact" || str(p.trigger) !== undefined);
  return host ? HOST_CLASS : SYNTHETIC_CLASS;
}

/** Usage exactly as the host reported it; null when absent. Never estimated. */
export interface HostUsage {
  context_tokens: number | null;
  context_usage_percent: number | null;
  context_window_size: number | null;
}

export function hostUsage(p: Payload): HostUsage {
  const n = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
  return {
    context_tokens: n(p.context_tokens),
    context_usage_percent: n(p.context_usage_percent),
    context_window_size: n(p.context_window_size),
  };
}

export interface StationInput {
  projectRoot: string;
  conversationId?: string;
  generationId?: string;
  eventClass: EventClass;
  trigger?: string;
  usage: HostUsage;
  compiles: CompileRecord[];
  editedFiles: string[];
  now: Date;
}

function usageLine(u: HostUsage): string {
  if (u.context_tokens === null && u.context_usage_percent === null)
    return "not reported by Cursor for this event";
  const parts = [
    u.context_tokens !== null ? `${u.context_tokens} tokens` : "tokens not reported",
    u.context_window_size !== null ? `of a ${u.context_window_size}-token window` : "",
    u.context_usage_percent !== null ? `(${u.context_usage_percent}% used)` : "",
  ];
  return parts.filter(Boolean).join(" ");
}

function recentPrompts(
  projectRoot: string,
  conversationId: string | undefined,
  limit = 3,
): string[] {
  if (!conversationId) return [];
  return readJsonl<{ conversationId?: string; title?: string }>(
    projectFile(projectRoot, PROMPT_LOG),
  )
    .filter((r) => r.conversationId === conversationId && typeof r.title === "string")
    .slice(-limit)
    .map((r) => (r.title as string).replace(/\s+/g, " ").trim());
}

/** The sections AIC rewrites; any other `## ` section found in the old station is kept. */
const AIC_SECTIONS = [
  "Recent intents (newest first)",
  "Recent user prompts (oldest first)",
  "Files edited in this conversation",
  "Next step",
];

/** `## ` sections of an earlier station that AIC did not write (notes left by the agent). */
export function keptSections(previous: string | undefined): string[] {
  if (!previous) return [];
  const kept: string[] = [];
  for (const part of previous.split(/^(?=## )/m).slice(1)) {
    const title = part.slice(3).split("\n")[0]!.trim();
    if (!AIC_SECTIONS.includes(title)) kept.push(part.trimEnd());
  }
  return kept;
}

function conversationOf(station: string | undefined): string | undefined {
  return station ? /^- Conversation: (\S+)/m.exec(station)?.[1] : undefined;
}

/** A station is read in one go after a compaction: keep it short. */
const MAX_EDITED_LISTED = 50;

export function renderStation(s: StationInput, kept: string[] = []): string {
  const lastPrompt = projectFile(s.projectRoot, LAST_COMPILED_PROMPT);
  let lastCompiled = "none yet (no compile has written it)";
  try {
    lastCompiled = `.aic/${LAST_COMPILED_PROMPT} (written ${statSync(lastPrompt).mtime.toISOString()})`;
  } catch {
    // Not written yet.
  }
  const lines = [
    "# AIC station",
    "",
    `Written by AIC-pre-compact at ${s.now.toISOString()} before Cursor compacted the conversation`,
    `(event_class=${s.eventClass}${s.trigger ? `, trigger=${s.trigger}` : ""}).`,
    "Read this to resume; Cursor does not carry AIC's context across a compaction.",
    "",
    `- Conversation: ${s.conversationId ?? "unknown"} (continue this conversation; do not start a new one)`,
    `- Generation: ${s.generationId ?? "unknown"}`,
    `- Context at compaction: ${usageLine(s.usage)}`,
    `- Last compiled context: ${lastCompiled}`,
    "",
    "## Recent intents (newest first)",
  ];
  if (!s.compiles.length) lines.push("- none recorded in this conversation");
  for (const c of s.compiles)
    lines.push(
      `- ${c.intent}${c.files.length ? ` — top files: ${c.files.join(", ")}` : ""} (${c.time})`,
    );
  const prompts = recentPrompts(s.projectRoot, s.conversationId);
  if (prompts.length) {
    lines.push("", "## Recent user prompts (oldest first)");
    for (const p of prompts) lines.push(`- ${p}`);
  }
  lines.push("", "## Files edited in this conversation");
  if (!s.editedFiles.length) lines.push("- none recorded");
  for (const f of s.editedFiles.slice(0, MAX_EDITED_LISTED)) lines.push(`- ${f}`);
  if (s.editedFiles.length > MAX_EDITED_LISTED)
    lines.push(`- …and ${s.editedFiles.length - MAX_EDITED_LISTED} more`);
  lines.push(
    "",
    "## Next step",
    "Call aic_compile with your current intent before using other tools; it brings back the",
    "relevant code for the task.",
    "",
  );
  for (const section of kept) lines.push(section, "");
  return lines.join("\n");
}

export interface StationWrite {
  stationPath: string;
  receiptPath?: string;
}

export function writeStation(s: StationInput, scriptPath: string): StationWrite {
  const dir = ensureStateDir(projectAicDir(s.projectRoot));
  const stationPath = join(dir, "STATION.md");
  const key = s.conversationId ? safeKey(s.conversationId) : "unknown";
  const ownPath = join(dir, "stations", `${key}.md`);
  // Notes the agent added to this conversation's station survive the rewrite.
  const shared = readTextIfExists(stationPath);
  const previous =
    s.conversationId && conversationOf(shared) === s.conversationId
      ? shared
      : readTextIfExists(ownPath);
  const text = renderStation(s, keptSections(previous));
  writeFileAtomic(stationPath, text);
  ensureStateDir(join(dir, "stations"));
  writeFileAtomic(ownPath, text);

  const time = s.now.toISOString();
  const append = (name: string, line: string): void =>
    appendFileSync(join(dir, name), line + "\n", { mode: PRIVATE_FILE_MODE });
  append(
    "cursor-hook-invoke.log",
    `${time} event=preCompact event_class=${s.eventClass} conversation=${s.conversationId ?? "-"} js=${scriptPath}`,
  );
  if (s.eventClass !== HOST_CLASS || !s.conversationId) return { stationPath };

  const receipt = {
    time,
    event_class: s.eventClass,
    conversation_id: s.conversationId,
    generation_id: s.generationId ?? null,
    trigger: s.trigger ?? null,
    ...s.usage,
    station: ".aic/STATION.md",
  };
  ensureStateDir(join(dir, "cursor-receipts"));
  const receiptPath = join(dir, "cursor-receipts", `${key}.json`);
  writeFileAtomic(receiptPath, JSON.stringify(receipt, null, 2) + "\n");
  append(
    "cursor-hook.log",
    JSON.stringify({
      time,
      session_id: s.conversationId,
      generation_id: s.generationId ?? null,
      ...s.usage,
    }),
  );
  return { stationPath, receiptPath };
}
