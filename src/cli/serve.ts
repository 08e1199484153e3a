/** `aic serve`: the MCP server over stdio (what Cursor's mcp.json starts). */
import type { Command } from "commander";

export function registerServeCommand(program: Command): void {
  program
    .command("serve")
    .description("run the AIC MCP server over stdio (register it in .cursor/mcp.json)")
    .action(async () => {
      // Loaded here, not at the top: the MCP SDK and zod would slow every other aic command.
      const { serveStdio } = await import("../mcp/server.js");
      // One warm index per project per user: compile in the daemon when one runs (docs/daemon.md).
      const { createForwardingCompile } = await import("../daemon/forward-compile.js");
      await serveStdio({ compilation: { compile: createForwardingCompile() } });
    });
}
