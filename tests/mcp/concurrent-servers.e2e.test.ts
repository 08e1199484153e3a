/**
 * Several built MCP servers (as several Cursor windows would run) compiling into one AIC_HOME at
 * the same time: every compilation recorded, none refused, the shared cache consistent.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { connectBuiltServer } from "../service/built-cli.js";
import { childEnv, makeSandbox } from "../service/fixture-project.js";

const SERVERS = 3;
const INTENTS = [
  "findUser by name",
  "hashPassword unicode",
  "invoiceTotal lines",
  "monthly_report rows",
];

describe("concurrent MCP servers on one database", () => {
  it("record every compilation from every server", async () => {
    const sb = makeSandbox();
    const clients = await Promise.all(
      Array.from({ length: SERVERS }, async (_, k) => {
        const { client } = await connectBuiltServer(childEnv(sb), { name: `window-${k}` });
        return client;
      }),
    );
    // Every server compiles every intent at once: same keys race for the shared cache too.
    const results = (await Promise.all(
      clients.flatMap((client, k) =>
        INTENTS.map((intent) =>
          client.callTool({
            name: "aic_compile",
            arguments: { intent, projectRoot: sb.project, conversationId: `window-${k}` },
          }),
        ),
      ),
    )) as CallToolResult[];
    for (const r of results) expect(r.isError, JSON.stringify(r.content)).toBeFalsy();

    const status = (await clients[0]!.callTool({
      name: "aic_status",
      arguments: {},
    })) as CallToolResult;
    const report = JSON.parse((status.content[0] as { text: string }).text) as {
      compilations: number;
      conversations: number;
    };
    expect(report).toMatchObject({
      compilations: SERVERS * INTENTS.length,
      conversations: SERVERS,
    });
    // Same request, same context, whichever server answered it.
    const prompts = new Map<string, Set<string>>();
    results.forEach((r, i) => {
      const intent = INTENTS[i % INTENTS.length]!;
      const set = prompts.get(intent) ?? new Set<string>();
      set.add((r.content[0] as { text: string }).text);
      prompts.set(intent, set);
    });
    for (const set of prompts.values()) expect(set.size).toBe(1);
    await Promise.all(clients.map((c) => c.close()));
  });
});
