/**
 * Which MCP tool a Cursor tool event is about, read from the tool's identity fields only. Cursor
 * names MCP tools `MCP:<tool>` in some versions and `mcp__<server>__<tool>` in others. The tool's
 * input is never searched: a Grep whose pattern is "aic_compile" is a Grep (DESIGN trap 5).
 */
import { isObject, str, toolInput, type Payload } from "../shared/payload.js";

const PATTERNS: RegExp[] = [
  /^MCP:(?:[^:\s]+:)?([A-Za-z0-9_.-]+)$/i, // MCP:aic_compile, MCP:aic:aic_compile
  /^mcp__.+?__([A-Za-z0-9_.-]+)$/, // mcp__aic__aic_compile
  /^mcp_[A-Za-z0-9-]+_(aic_[A-Za-z0-9_]+)$/, // mcp_aic_aic_compile (server names without "_")
];

/** The bare MCP tool name ("aic_compile"), or undefined for a non-MCP tool. */
export function mcpToolName(p: Payload): string | undefined {
  const name = str(p.tool_name) ?? str(p.toolName);
  if (name === undefined) return undefined;
  for (const re of PATTERNS) {
    const m = re.exec(name);
    if (m?.[1]) return m[1];
  }
  // A generic "MCP" tool whose input names the tool structurally: {server, toolName, arguments}.
  if (/^mcp$/i.test(name)) {
    const input = toolInput(p);
    const inner = str(input.toolName) ?? str(input.tool_name) ?? str(input.name);
    if (inner) return inner.replace(/^.*__/, "");
  }
  return undefined;
}

export function isAicTool(p: Payload, tool: "aic_compile" | "aic_chat_summary"): boolean {
  return mcpToolName(p) === tool;
}

function isEnvelope(
  input: Record<string, unknown>,
): input is { arguments: Record<string, unknown> } {
  return isObject(input.arguments) && (str(input.toolName) ?? str(input.tool_name)) !== undefined;
}

/** The MCP tool's arguments, unwrapped from a generic `{toolName, arguments}` envelope if any. */
export function mcpArguments(p: Payload): Record<string, unknown> {
  const input = toolInput(p);
  return isEnvelope(input) ? input.arguments : input;
}

/** The tool input with its MCP arguments replaced, in the shape Cursor sent it. */
export function withMcpArguments(
  p: Payload,
  args: Record<string, unknown>,
): Record<string, unknown> {
  const input = toolInput(p);
  return isEnvelope(input) ? { ...input, arguments: args } : args;
}
