/** MCP tool hints: everything is local; only aic_compile writes (its log and cache). */
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";

export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  idempotentHint: true,
  openWorldHint: false,
};

export const RECORDS_LOCALLY: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};
