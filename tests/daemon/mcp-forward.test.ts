/**
 * One warm index per project per user: the MCP server compiles in the daemon when one runs, and
 * in-process otherwise. Built server (`dist/cli.js serve`) over stdio with the official SDK client.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Compiler } from "../../src/compiler/index.js";
import type { CompiledContext } from "../../src/compiler/types.js";
import { callDaemon, type DaemonCallResult } from "../../src/daemon/client.js";
import { createForwardingCompile } from "../../src/daemon/forward-compile.js";
import { REPO_ROOT } from "../integrations/helpers.js";
import { childEnv, makeSandbox, type Sandbox } from "../service/fixture-project.js";
import { killDaemon, run } from "./helpers.js";

const CLI = join(REPO_ROOT, "dist/cli.js");
const built = existsSync(CLI);

describe("createForwardingCompile", () => {
  const request = { projectRoot: "/p", intent: "x" };
  const context = { prompt: "from daemon" } as CompiledContext;
  function localCompiler(log: string[]): Compiler {
    return {
      compile: async (r) => {
        log.push(`compile ${r.projectRoot}`);
        return { prompt: "local" } as CompiledContext;
      },
      invalidate: (root) => log.push(`invalidate ${root}`),
    };
  }

  it("compiles in-process without a daemon, and drops that index once the daemon serves", async () => {
    const log: string[] = [];
    const replies: DaemonCallResult[] = [
      { status: "unavailable", reason: "no daemon is running" },
      { status: "ok", result: context },
    ];
    const compile = createForwardingCompile({
      env: {},
      build: "b",
      call: async (method, params) => {
        log.push(`call ${method} ${JSON.stringify(params)}`);
        return replies.shift()!;
      },
      createLocal: async () => localCompiler(log),
    });
    expect((await compile(request)).prompt).toBe("local");
    expect((await compile(request)).prompt).toBe("from daemon");
    expect(log).toEqual([
      `call compileContext ${JSON.stringify(request)}`,
      "compile /p",
      `call compileContext ${JSON.stringify(request)}`,
      "invalidate /p",
    ]);
  });

  it("never talks to the daemon with AIC_DAEMON=off, and reports a daemon that times out", async () => {
    const log: string[] = [];
    const off = createForwardingCompile({
      env: { AIC_DAEMON: "off" },
      call: async () => {
        throw new Error("must not be called");
      },
      createLocal: async () => localCompiler(log),
    });
    expect((await off(request)).prompt).toBe("local");
    const slow = createForwardingCompile({
      env: {},
      call: async () => ({ status: "timeout", reason: "no reply to compileContext within 5 ms" }),
      createLocal: async () => localCompiler(log),
    });
    await expect(slow(request)).rejects.toThrow(/AIC daemon: no reply to compileContext/);
  });
});

describe.skipIf(!built)("aic serve with and without a daemon (built server, SDK client)", () => {
  let sandbox: Sandbox;
  let client: Client;

  beforeAll(async () => {
    sandbox = makeSandbox();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "serve"],
      env: childEnv(sandbox),
      cwd: sandbox.home,
      stderr: "pipe",
    });
    client = new Client({ name: "aic-daemon-test", version: "1.0.0" });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
    killDaemon(childEnv(sandbox));
  });

  async function compile(intent: string): Promise<string> {
    const result = (await client.callTool({
      name: "aic_compile",
      arguments: { intent, projectRoot: sandbox.project },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const first = result.content[0];
    return first?.type === "text" ? first.text : "";
  }

  async function daemonCompiles(): Promise<number | null> {
    const res = await callDaemon("status", undefined, { env: childEnv(sandbox) });
    if (res.status !== "ok") return null;
    const projects = (res.result as { projects: Record<string, { compiles: number }> }).projects;
    return projects[sandbox.project]?.compiles ?? 0;
  }

  it("compiles in-process with no daemon, in the daemon once one runs, and never starts one", async () => {
    expect(await compile("unicode passwords fail in hashPassword")).toContain("password.ts");
    expect(await daemonCompiles()).toBeNull(); // the MCP server did not start a daemon

    const started = await run([CLI, "daemon", "start"], childEnv(sandbox));
    expect(started.stdout).toMatch(/started/);
    expect(await compile("invoiceTotal sums invoice lines")).toContain("invoice.ts");
    expect(await daemonCompiles()).toBe(1);

    // A cached answer is served by the MCP server's result cache without compiling anywhere.
    await compile("invoiceTotal sums invoice lines");
    expect(await daemonCompiles()).toBe(1);

    expect((await run([CLI, "daemon", "stop"], childEnv(sandbox))).stdout).toMatch(/stopped/);
    expect(await compile("login throws on invalid credentials")).toContain("login.ts");
    expect(await daemonCompiles()).toBeNull();
  });
});
