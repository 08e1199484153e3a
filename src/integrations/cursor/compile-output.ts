/** Reading an aic_compile tool result as Cursor reports it to postToolUse. */
import { topFilesOf } from "../shared/compile-for-hook.js";
import { isObject } from "../shared/payload.js";

export const CONFIRMATION =
  "AIC compilation completed. Use the compiled context for your next response.";

/** tool_output arrives as a JSON string or an object; returns success and the reported files. */
export function readCompileOutput(raw: unknown): { ok: boolean; files: string[] } {
  let out: unknown = raw;
  if (typeof raw === "string") {
    try {
      out = JSON.parse(raw);
    } catch {
      return { ok: raw.trim() !== "" && !/^\s*(mcp )?error\b/i.test(raw), files: [] };
    }
  }
  if (!isObject(out) || out.isError === true) return { ok: false, files: [] };
  const content = Array.isArray(out.content) ? out.content : [];
  if (content.length === 0) return { ok: false, files: [] };
  const first = content.find((c) => isObject(c) && typeof c.text === "string");
  let files: string[] = [];
  if (isObject(first)) {
    try {
      const body: unknown = JSON.parse(first.text as string);
      if (isObject(body)) {
        if (
          typeof body.error === "string" &&
          body.compiledPrompt === undefined &&
          body.prompt === undefined
        )
          return { ok: false, files: [] };
        files = topFilesOf(body);
      }
    } catch {
      // The MCP tool answers the compiled prompt as plain text: read its file headers.
      files = filesFromPrompt(first.text as string);
    }
  }
  return { ok: true, files };
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
