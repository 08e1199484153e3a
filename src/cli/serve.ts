/** `aic serve`: the MCP server over stdio (what Cursor's mcp.json starts). */
import type { Command } from "commander";
import { serveStdio } from "../mcp/server.js";

export function registerServeCommand(program: Command): void {
  program
    .command("serve")
    .description("run the AIC MCP server over stdio (register it in .cursor/mcp.json)")
    .action(async () => {
      await serveStdio();
    });
}
