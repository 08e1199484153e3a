/** Small builders for MCP tool results. */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

export function jsonResult(value: unknown): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value, null, 2) }] };
}

export function textResult(...texts: string[]): CallToolResult {
  return { content: texts.map((text) => ({ type: "text" as const, text })) };
}

/** Caller mistakes: their message is the whole story, no stack needed in the server log. */
const EXPECTED_ERRORS = new Set(["AicInputError", "ConfigError", "CompileInputError"]);

/**
 * Wrap a tool handler so an unexpected failure leaves its stack in the server log (stderr)
 * before the SDK turns it into an `isError` result; the server keeps serving either way.
 */
export function logFailures<A, R>(
  tool: string,
  log: (line: string) => void,
  handler: (args: A) => R | Promise<R>,
): (args: A) => Promise<R> {
  return async (args) => {
    try {
      return await handler(args);
    } catch (err) {
      if (!(err instanceof Error) || !EXPECTED_ERRORS.has(err.name)) {
        log(`${tool} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      }
      throw err;
    }
  };
}
