/** Small builders for MCP tool results. */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

export function jsonResult(value: unknown): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value, null, 2) }] };
}

export function textResult(...texts: string[]): CallToolResult {
  return { content: texts.map((text) => ({ type: "text" as const, text })) };
}
