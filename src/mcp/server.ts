/**
 * The AIC MCP server (`aic serve`): one module per tool under tools/, stdio transport.
 * stdout carries the protocol, so every log line goes to stderr.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { RootsListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { fileURLToPath } from "node:url";
import { readFileSync } from "node:fs";
import type { CompilationDeps } from "../service/compilation-service.js";
import { resolveProjectRoot } from "../service/project-root.js";
import { sharedDatabase, type Db } from "../store/index.js";
import type { ToolContext } from "./context.js";
import { createEditorBootstrap, type EditorBootstrap } from "./editor-bootstrap.js";
import { pruneKnownProjectLogs } from "./log-retention.js";
import { registerChatSummaryTool } from "./tools/chat-summary.js";
import { registerCompileTool } from "./tools/compile.js";
import { registerInspectTool } from "./tools/inspect.js";
import { registerLastTool } from "./tools/last.js";
import { registerProjectsTool } from "./tools/projects.js";
import { registerStatusTool } from "./tools/status.js";

export interface ServerDeps {
  db?: () => Db;
  compilation?: Partial<CompilationDeps>;
  bootstrap?: EditorBootstrap;
  homeDir?: string;
  log?: (line: string) => void;
}

function stderrLog(line: string): void {
  process.stderr.write(`[aic serve] ${line}\n`);
}

function packageVersion(): string {
  try {
    const pkg = JSON.parse(
      readFileSync(new URL("../../package.json", import.meta.url), "utf8"),
    ) as { version?: string };
    return pkg.version ?? "0.0.0";
  } catch {
    return "0.0.0";
  }
}

export function createAicServer(deps: ServerDeps = {}): McpServer {
  const log = deps.log ?? stderrLog;
  const ctx: ToolContext = {
    db: deps.db ?? (() => sharedDatabase()),
    compilation: deps.compilation ?? {},
    bootstrap: deps.bootstrap ?? createEditorBootstrap({ log }),
    log,
    ...(deps.homeDir ? { homeDir: deps.homeDir } : {}),
  };
  const server = new McpServer(
    { name: "aic", version: packageVersion() },
    {
      instructions:
        "AIC compiles the project context for each request. Call aic_compile first on every user " +
        "message, with the message as intent and the workspace folder as projectRoot.",
    },
  );
  registerCompileTool(server, ctx);
  registerStatusTool(server, ctx);
  registerLastTool(server, ctx);
  registerChatSummaryTool(server, ctx);
  registerProjectsTool(server, ctx);
  registerInspectTool(server, ctx);

  // Editor bootstrap on the client's workspace roots, when the client exposes them.
  const bootstrapRoots = async () => {
    if (!server.server.getClientCapabilities()?.roots) return;
    try {
      const { roots } = await server.server.listRoots();
      for (const root of roots) {
        if (!root.uri.startsWith("file://")) continue;
        try {
          await ctx.bootstrap.run(resolveProjectRoot(fileURLToPath(root.uri), ctx.homeDir));
        } catch (err) {
          log(`workspace root ${root.uri} skipped: ${(err as Error).message}`);
        }
      }
    } catch (err) {
      log(`could not list the client's workspace roots: ${(err as Error).message}`);
    }
  };
  server.server.oninitialized = () => void bootstrapRoots();
  // A malformed message is dropped by the transport; say so instead of staying silent.
  server.server.onerror = (err) => log(`protocol error (message ignored): ${err.message}`);
  server.server.setNotificationHandler(RootsListChangedNotificationSchema, () => bootstrapRoots());
  return server;
}

/** `aic serve`: prune old logs, then serve over stdio until the client disconnects. */
export async function serveStdio(deps: ServerDeps = {}): Promise<void> {
  const log = deps.log ?? stderrLog;
  const db = deps.db ?? (() => sharedDatabase());
  try {
    pruneKnownProjectLogs(db(), { log });
  } catch (err) {
    log(`log pruning skipped: ${(err as Error).message}`);
  }
  const server = createAicServer({ ...deps, db, log });
  await server.connect(new StdioServerTransport());
}
