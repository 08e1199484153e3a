/** Reading an aic_compile tool result as Cursor reports it to postToolUse. */
import { topFilesOf } from "../shared/compile-for-hook.js";
import { isObject } from "../shared/payload.js";

export const CONFIRMATION =
  "AIC compilation completed. Use the compiled context for your next response.";

export interface CompileOutput {
  ok: boolean;
  /** Paths the compiled context starts with (best first). */
  files: string[];
  /** What the tool reported when the compile failed. */
  error?: string;
}

const failed = (error: string): CompileOutput => ({
  ok: false,
  files: [],
  error: error.slice(0, 500),
});

function firstText(content: unknown[]): string | undefined {
  const first = content.find((c) => isObject(c) && typeof c.text === "string");
  return isObject(first) ? (first.text as string) : undefined;
}

/** tool_output arrives as a JSON string or an object; returns success and the reported files. */
export function readCompileOutput(raw: unknown): CompileOutput {
  let out: unknown = raw;
  if (typeof raw === "string") {
    try {
      out = JSON.parse(raw);
    } catch {
      if (raw.trim() === "") return { ok: false, files: [] };
      return /^\s*(mcp )?error\b/i.test(raw) ? failed(raw.trim()) : { ok: true, files: [] };
    }
  }
  if (!isObject(out)) return { ok: false, files: [] };
  const content = Array.isArray(out.content) ? out.content : [];
  const text = firstText(content);
  if (out.isError === true) return failed(text ?? "the tool reported an error");
  if (content.length === 0) return { ok: false, files: [] };
  if (text === undefined) return { ok: true, files: [] };
  try {
    const body: unknown = JSON.parse(text);
    if (!isObject(body)) return { ok: true, files: [] };
    if (
      typeof body.error === "string" &&
      body.compiledPrompt === undefined &&
      body.prompt === undefined
    )
      return failed(body.error);
    return { ok: true, files: topFilesOf(body) };
  } catch {
    // The MCP tool answers the compiled prompt as plain text: read its file headers.
    return { ok: true, files: filesFromPrompt(text) };
  }
}

/** File headers of a compiled prompt, `## <path> (<tier>…)` (src/compiler/pack.ts sectionHeader). */
const FILE_HEADER = /^## (.+?) \((?:full|regions|outline|path)\b/gm;

export function filesFromPrompt(prompt: string, limit = 5): string[] {
  const out: string[] = [];
  for (const m of prompt.matchAll(FILE_HEADER)) {
    if (!out.includes(m[1]!)) out.push(m[1]!);
    if (out.length === limit) break;
  }
  return out;
}
