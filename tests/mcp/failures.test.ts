/** In-process server over the SDK's in-memory transport: how failures reach the client and log. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createAicServer } from "../../src/mcp/server.js";
import { openDatabase } from "../../src/store/index.js";
import { makeSandbox } from "../service/fixture-project.js";

describe("tool failures", () => {
  it("log an unexpected failure with its stack, report it as a tool error, and keep serving", async () => {
    const sb = makeSandbox();
    const db = openDatabase({ path: join(sb.aicHome, "aic.sqlite") });
    const logs: string[] = [];
    const server = createAicServer({
      db: () => db,
      homeDir: sb.home,
      log: (l) => logs.push(l),
      compilation: {
        compile: () => Promise.reject(new Error("index file truncated")),
      },
    });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: "t", version: "1" });
    await client.connect(b);

    const failed = (await client.callTool({
      name: "aic_compile",
      arguments: { intent: "findUser", projectRoot: sb.project },
    })) as CallToolResult;
    expect(failed.isError).toBe(true);
    expect(failed.content[0]).toMatchObject({
      text: expect.stringContaining("index file truncated"),
    });
    expect(logs.join("\n")).toMatch(/aic_compile failed: Error: index file truncated\n\s+at /);

    // A caller mistake is answered but not logged as a failure.
    const refused = (await client.callTool({
      name: "aic_compile",
      arguments: { intent: "findUser", projectRoot: "/" },
    })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(logs.filter((l) => l.includes("failed"))).toHaveLength(1);

    const status = (await client.callTool({ name: "aic_status", arguments: {} })) as CallToolResult;
    expect(status.isError).toBeFalsy();
    await client.close();
  });
});
