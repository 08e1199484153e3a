/**
 * The BUILT `aic` (dist/cli.js), as Cursor and users run it: the MCP server through the official
 * SDK client over stdio. Shared by the MCP and CLI end-to-end tests.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

export const CLI = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));

export function requireBuiltCli(): string {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  return CLI;
}

export interface ServerOptions {
  /** Workspace roots the client reports (enables the roots capability). */
  roots?: string[];
  cwd?: string;
  name?: string;
}

/** Start `aic serve` and connect an SDK client; stderr is collected for assertions. */
export async function connectBuiltServer(env: Record<string, string>, options: ServerOptions = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [requireBuiltCli(), "serve"],
    env,
    ...(options.cwd ? { cwd: options.cwd } : {}),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const { roots } = options;
  const client = new Client(
    { name: options.name ?? "aic-test", version: "1.0.0" },
    roots ? { capabilities: { roots: { listChanged: true } } } : {},
  );
  if (roots) {
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: roots.map((r) => ({ uri: pathToFileURL(r).href, name: "workspace" })),
    }));
  }
  await client.connect(transport);
  return { client, stderr: () => stderr };
}
