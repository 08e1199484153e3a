import { UnsupportedError, positionOf } from "./errors.js";
import { isKnownHookEvent } from "./events.js";
import {
  type JsonArray,
  type JsonDocument,
  type JsonMember,
  type JsonObject,
  type JsonValue,
  type ParseMode,
  parseJsonBytes,
  parseJsonText,
} from "./parse.js";

/**
 * The hooks.json shape AIC is willing to edit: a root object; `hooks`, when present, an object
 * whose every event maps to an array; `version`, when present, the number 1 in any spelling
 * (1, 1.0, 1e0 are kept as written). Entries themselves stay opaque: foreign entries may have
 * any shape and future fields.
 */

export interface HooksWarning {
  code: "unknown-event";
  /** Fixed text; the event name is not echoed (it is foreign content). */
  message: string;
  line: number;
  column: number;
}

export interface EventSlot {
  name: string;
  member: JsonMember;
  array: JsonArray;
}

export interface HooksDocument {
  doc: JsonDocument;
  root: JsonObject;
  version: JsonMember | undefined;
  hooksMember: JsonMember | undefined;
  hooks: JsonObject | undefined;
  events: EventSlot[];
  warnings: HooksWarning[];
}

export interface ParseHooksOptions {
  /** Default "jsonc": people hand-edit hooks.json and comments must survive our edits. */
  mode?: ParseMode;
}

export function parseHooksDocument(
  bytes: Uint8Array,
  options: ParseHooksOptions = {},
): HooksDocument {
  return shapeOf(parseJsonBytes(bytes, options.mode ?? "jsonc"));
}

export function parseHooksText(text: string, mode: ParseMode): HooksDocument {
  return shapeOf(parseJsonText(text, mode));
}

function shapeOf(doc: JsonDocument): HooksDocument {
  const at = (node: JsonValue) => positionOf(doc.text, node.start);
  if (doc.root.type !== "object") throw new UnsupportedError("root-not-object", at(doc.root));
  const root = doc.root;
  const version = member(root, "version");
  if (version && !(version.value.type === "number" && Number(version.value.text) === 1)) {
    throw new UnsupportedError("version-not-1", at(version.value));
  }
  const hooksMember = member(root, "hooks");
  if (hooksMember && hooksMember.value.type !== "object") {
    throw new UnsupportedError("hooks-not-object", at(hooksMember.value));
  }
  const hooks = hooksMember?.value as JsonObject | undefined;
  const events: EventSlot[] = [];
  const warnings: HooksWarning[] = [];
  for (const m of hooks?.members ?? []) {
    if (m.value.type !== "array") throw new UnsupportedError("event-not-array", at(m.value));
    events.push({ name: m.key.value, member: m, array: m.value });
    if (!isKnownHookEvent(m.key.value)) {
      warnings.push({
        code: "unknown-event",
        message:
          "hooks.json names an event Cursor does not document; Cursor may ignore the whole file. AIC leaves it as it is.",
        ...positionOf(doc.text, m.key.start),
      });
    }
  }
  return { doc, root, version, hooksMember, hooks, events, warnings };
}

export function member(object: JsonObject, key: string): JsonMember | undefined {
  return object.members.find((m) => m.key.value === key);
}

/** The `command` of an entry, when it is an object with a string command. */
export function commandOf(entry: JsonValue): string | undefined {
  if (entry.type !== "object") return undefined;
  const command = member(entry, "command");
  return command?.value.type === "string" ? command.value.value : undefined;
}
