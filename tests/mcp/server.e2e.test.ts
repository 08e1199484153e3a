/**
 * Acceptance: the BUILT server (`node dist/cli.js serve`) driven by the official MCP SDK client
 * over stdio, with HOME and AIC_HOME in a temp folder.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { execFileSync } from "node:child_process";
import { appendFileSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CompileSummary } from "../../src/service/compilation-service.js";
import { CLI, connectBuiltServer } from "../service/built-cli.js";
import { childEnv, makeSandbox, type Sandbox } from "../service/fixture-project.js";

let sandbox: Sandbox;
let client: Client;
let serverStderr: () => string;

function texts(result: unknown): string[] {
  return (result as CallToolResult).content.map((c) => (c.type === "text" ? c.text : ""));
}

async function call(name: string, args: Record<string, unknown>) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

async function callJson<T = Record<string, unknown>>(name: string, args: Record<string, unknown>) {
  const result = await call(name, args);
  expect(result.isError, texts(result).join("\n")).toBeFalsy();
  return JSON.parse(texts(result)[0]!) as T;
}

async function compile(args: Record<string, unknown>) {
  const result = await call("aic_compile", { projectRoot: sandbox.project, ...args });
  expect(result.isError, texts(result).join("\n")).toBeFalsy();
  const [prompt, metaLine] = texts(result);
  expect(metaLine).toMatch(/^AIC meta: /);
  return {
    prompt: prompt!,
    meta: JSON.parse(metaLine!.slice("AIC meta: ".length)) as CompileSummary,
  };
}

beforeAll(async () => {
  sandbox = makeSandbox();
  // cwd deliberately not the project: nothing may assume the working directory.
  const server = await connectBuiltServer(childEnv(sandbox), { cwd: sandbox.home });
  client = server.client;
  serverStderr = server.stderr;
});

afterAll(async () => {
  await client?.close();
});

describe("aic serve over stdio (built server, SDK client)", () => {
  it("lists the six tools, each telling the model when to call it", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "aic_chat_summary",
      "aic_compile",
      "aic_inspect",
      "aic_last",
      "aic_projects",
      "aic_status",
    ]);
    const compileTool = tools.find((t) => t.name === "aic_compile")!;
    expect(compileTool.description).toMatch(/FIRST on every user message/);
    expect(compileTool.inputSchema.required).toEqual(["intent", "projectRoot"]);
    // Only aic_compile writes anything (its log and cache); nothing reaches beyond this machine.
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(tool.name !== "aic_compile");
      expect(tool.annotations?.openWorldHint, tool.name).toBe(false);
    }
    for (const field of [
      "editorId",
      "triggerSource",
      "conversationId",
      "modelId",
      "reparentFromConversationId",
      "stepIndex",
      "stepIntent",
      "previousFiles",
      "toolOutputs",
      "conversationTokens",
      "budget",
    ]) {
      expect(compileTool.inputSchema.properties).toHaveProperty(field);
    }
  });

  it("compiles, records, caches, and invalidates the cache when a file changes", async () => {
    const intent = "unicode passwords fail to log in: hashPassword in login";
    const request = { intent, conversationId: "conv-1", editorId: "cursor", modelId: "m-1" };
    const first = await compile(request);
    expect(first.prompt).toContain(intent);
    expect(first.prompt).toContain("src/auth/password.ts");
    expect(first.meta).toMatchObject({ conversationId: "conv-1", cacheHit: false, budget: 8000 });
    expect(first.meta.filesSelected).toBeGreaterThan(0);
    expect(first.meta.filesTotal).toBe(6);
    expect(first.meta.tokensCompiled).toBeLessThanOrEqual(first.meta.budget);

    const lastPrompt = join(sandbox.project, ".aic", "last-compiled-prompt.txt");
    expect(readFileSync(lastPrompt, "utf8")).toBe(first.prompt);
    expect(statSync(lastPrompt).mode & 0o777).toBe(0o600);

    const again = await compile(request);
    expect(again.meta.cacheHit).toBe(true);
    expect(again.prompt).toBe(first.prompt);

    // Another model is another cache entry.
    expect(
      (await compile({ intent, conversationId: "conv-1", modelId: "m-2" })).meta.cacheHit,
    ).toBe(false);

    appendFileSync(
      join(sandbox.project, "src/auth/password.ts"),
      "\nexport const PEPPER_VERSION = 2;\n",
    );
    const edited = await compile(request);
    expect(edited.meta.cacheHit).toBe(false);
    expect(edited.prompt).toContain("PEPPER_VERSION");
  });

  it("falls back to the conversation's last real intent for a weak one", async () => {
    const { meta, prompt } = await compile({ intent: "continue", conversationId: "conv-1" });
    expect(meta.intentSource).toBe("conversation-fallback");
    expect(meta.intent).toBe("unicode passwords fail to log in: hashPassword in login");
    expect(prompt).toContain("hashPassword");
  });

  it("reports status, last, chat summary and projects from the database", async () => {
    const status = await callJson<{ compilations: number; cacheHits: number; reduction: number }>(
      "aic_status",
      { days: 1 },
    );
    expect(status.compilations).toBe(5);
    expect(status.cacheHits).toBe(1);
    expect(status.reduction).toBeGreaterThanOrEqual(0);

    const scoped = await callJson<{ compilations: number }>("aic_status", {
      projectRoot: sandbox.project,
    });
    expect(scoped.compilations).toBe(5);

    const last = await callJson<{
      compilation: { intent: string; intentSource: string };
      prompt: string;
    }>("aic_last", { projectRoot: sandbox.project });
    expect(last.compilation.intentSource).toBe("conversation-fallback");
    expect(last.prompt).toContain("hashPassword");

    const chat = await callJson<{ compilations: number; models: string[] }>("aic_chat_summary", {
      conversationId: "conv-1",
    });
    expect(chat.compilations).toBe(5);
    expect(chat.models.sort()).toEqual(["m-1", "m-2"]);

    const { projects } = await callJson<{ projects: { root: string; compilations: number }[] }>(
      "aic_projects",
      {},
    );
    expect(projects).toEqual([expect.objectContaining({ root: sandbox.project, compilations: 5 })]);
  });

  it("inspects with the full selection trace and records nothing", async () => {
    const out = await callJson<{ context: { ranking: string[]; trace: { ranking: unknown[] } } }>(
      "aic_inspect",
      { intent: "invoiceTotal sums invoice lines", projectRoot: sandbox.project },
    );
    expect(out.context.ranking[0]).toBe("src/billing/invoice.ts");
    expect(out.context.trace.ranking.length).toBeGreaterThan(0);
    expect((await callJson<{ compilations: number }>("aic_status", {})).compilations).toBe(5);
  });

  it("reparents a subagent's rows to the parent conversation without compiling", async () => {
    await compile({ intent: "invoice totals for the monthly report", conversationId: "sub-1" });
    const result = await callJson<{ reparented: boolean; rowsUpdated: number }>("aic_compile", {
      intent: "",
      projectRoot: sandbox.project,
      triggerSource: "subagent_stop",
      conversationId: "conv-1",
      reparentFromConversationId: "sub-1",
    });
    expect(result).toEqual({ reparented: true, rowsUpdated: 1 });
    const chat = await callJson<{ compilations: number; reparentedFrom: string[] }>(
      "aic_chat_summary",
      { conversationId: "conv-1" },
    );
    expect(chat).toMatchObject({ compilations: 6, reparentedFrom: ["sub-1"] });
  });

  it("answers invalid arguments with MCP errors and keeps serving", async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ["aic_compile", { intent: "x" }, /projectRoot/],
      ["aic_compile", { intent: "x", projectRoot: "/" }, /filesystem root/],
      ["aic_compile", { intent: "x", projectRoot: sandbox.home }, /home folder/],
      ["aic_compile", { intent: "x", projectRoot: "shop" }, /absolute path/],
      ["aic_compile", { intent: "x", projectRoot: join(sandbox.home, "nope") }, /does not exist/],
      ["aic_compile", { intent: "x", projectRoot: sandbox.project, budget: -5 }, /budget/],
      ["aic_compile", { intent: "x", projectRoot: sandbox.project, colour: "red" }, /colour/],
      ["aic_compile", { intent: "", projectRoot: sandbox.project }, /intent is empty/],
      [
        "aic_compile",
        { intent: "x", projectRoot: sandbox.project, triggerSource: "subagent_stop" },
        /reparentFromConversationId/,
      ],
      ["aic_chat_summary", {}, /conversationId/],
      ["aic_status", { days: "seven" }, /days/],
      ["aic_inspect", { projectRoot: sandbox.project }, /intent/],
    ];
    for (const [name, args, message] of cases) {
      const result = await call(name, args);
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(texts(result).join("\n")).toMatch(message);
    }
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(6);
    expect((await compile({ intent: "findUser by name" })).prompt).toContain("findUser");
  });

  it("yields the same context as `aic compile` for the same request", async () => {
    const intent = "where is the session id built after login";
    const viaMcp = await compile({ intent, budget: 3000 });
    const cli = JSON.parse(
      execFileSync(
        process.execPath,
        [
          CLI,
          "compile",
          "--project",
          sandbox.project,
          "--intent",
          intent,
          "--budget",
          "3000",
          "--format",
          "json",
        ],
        { env: childEnv(sandbox), encoding: "utf8" },
      ),
    ) as { prompt: string };
    expect(viaMcp.prompt).toBe(cli.prompt);
  });

  it("logged nothing alarming on stderr", () => {
    expect(serverStderr()).not.toMatch(/Error|locked/);
  });
});
