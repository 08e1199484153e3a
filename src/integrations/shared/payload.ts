/**
 * Reading Cursor hook payloads defensively: fields drift between Cursor versions, so every read
 * tolerates a missing, null or wrongly typed value.
 */

export type Payload = Record<string, unknown>;

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A trimmed non-empty string, else undefined. */
export function str(v: unknown): string | undefined {
  if (typeof v !== "string") return undefined;
  const t = v.trim();
  return t === "" ? undefined : t;
}

/** The first field of `names` that holds a non-empty string. */
export function firstStr(p: Payload, ...names: string[]): string | undefined {
  for (const n of names) {
    const v = str(p[n]);
    if (v !== undefined) return v;
  }
  return undefined;
}

export function num(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

/** Parse stdin text into a payload object, or say why it is not one. */
export function parsePayload(text: string): { payload: Payload } | { error: string } {
  if (text.trim() === "") return { error: "stdin was empty" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { error: `stdin is not valid JSON (${(err as Error).message})` };
  }
  if (!isObject(value)) return { error: "stdin JSON is not an object" };
  return { payload: value };
}

/** Cursor's hook runtime stamps every payload with its version; Claude Code never does. */
export function cursorVersion(p: Payload): string | undefined {
  return str(p.cursor_version) ?? (isObject(p.input) ? str(p.input.cursor_version) : undefined);
}

/** Tool input arrives as an object, or in some versions as a JSON string. */
export function toolInput(p: Payload): Record<string, unknown> {
  const raw = p.tool_input ?? p.toolInput;
  if (isObject(raw)) return raw;
  if (typeof raw === "string") {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (isObject(parsed)) return parsed;
    } catch {
      // Not JSON: treat as no structured input.
    }
  }
  return {};
}
