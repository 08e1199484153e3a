/**
 * Server start-up behaviour of the built `aic serve`: JSONL log pruning for known projects, and
 * the editor bootstrap seam triggered by the client's workspace roots.
 */
import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readJsonl } from "../../src/shared/jsonl.js";
import { appendPromptLog, projectFile, PROMPT_LOG } from "../../src/shared/project-logs.js";
import { openDatabase, upsertProject } from "../../src/store/index.js";
import { CLI, connectBuiltServer } from "../service/built-cli.js";
import { childEnv, makeSandbox } from "../service/fixture-project.js";

function startServer(env: Record<string, string>, roots?: string[]) {
  return connectBuiltServer(env, roots ? { roots } : {});
}

describe("aic serve start-up", () => {
  it("prunes each known project's JSONL logs by its logRetentionDays", async () => {
    const sb = makeSandbox();
    writeFileSync(join(sb.project, "aic.config.json"), JSON.stringify({ logRetentionDays: 3 }));
    const now = Date.now();
    appendPromptLog(
      sb.project,
      { prompt: "old\nmulti-line ünïcode" },
      new Date(now - 5 * 86_400_000),
    );
    appendPromptLog(sb.project, { prompt: "recent" }, new Date(now - 1 * 86_400_000));
    const db = openDatabase({ path: join(sb.aicHome, "aic.sqlite") });
    upsertProject(db, sb.project);
    upsertProject(db, join(sb.home, "deleted-project")); // a vanished folder is skipped, not fatal
    db.close();

    const { client, stderr } = await startServer(childEnv(sb));
    await client.listTools(); // the server is up, so start-up pruning has run
    await client.close();
    expect(
      readJsonl<{ prompt: string }>(projectFile(sb.project, PROMPT_LOG)).map((r) => r.prompt),
    ).toEqual(["recent"]);
    expect(stderr()).toMatch(/pruned 1 log line\(s\) older than 3 days/);
  });

  it("runs the editor bootstrap for the client's workspace roots when enabled", async () => {
    const sb = makeSandbox();
    const { client, stderr } = await startServer(childEnv(sb, { AIC_EDITOR_BOOTSTRAP: "1" }), [
      sb.project,
      "/",
    ]);
    await client.listTools();
    // Roots are listed asynchronously after initialisation and handled in order (the project,
    // then "/"): wait for the last log line, bounded at 15 s, not a timing assertion.
    for (let i = 0; i < 300 && !/workspace root file:\/\/\/ skipped/.test(stderr()); i++)
      await new Promise((r) => setTimeout(r, 50));
    await client.close();
    // The installer wired as the default ran in-process: Cursor's hooks are in the project.
    expect(stderr()).toContain(
      `editor bootstrap: installed the Cursor integration into ${sb.project}`,
    );
    expect(existsSync(join(sb.project, ".cursor", "hooks.json"))).toBe(true);
    expect(stderr()).toMatch(/workspace root file:\/\/\/ skipped: .*filesystem root/);
  });

  it("runs the editor bootstrap on a project's first aic_compile, only when enabled", async () => {
    const off = makeSandbox();
    const plain = await startServer(childEnv(off));
    await plain.client.callTool({
      name: "aic_compile",
      arguments: { intent: "findUser", projectRoot: off.project },
    });
    await plain.client.close();
    expect(existsSync(join(off.project, ".cursor"))).toBe(false);

    const on = makeSandbox();
    const boot = await startServer(childEnv(on, { AIC_EDITOR_BOOTSTRAP: "1" }));
    const result = await boot.client.callTool({
      name: "aic_compile",
      arguments: { intent: "findUser", projectRoot: on.project },
    });
    await boot.client.close();
    expect(result.isError).toBeFalsy();
    expect(existsSync(join(on.project, ".cursor", "hooks.json"))).toBe(true);
  });

  it("survives a malformed line on stdin, logs it, and answers the next request", async () => {
    const sb = makeSandbox();
    const child = spawn(process.execPath, [CLI, "serve"], {
      env: childEnv(sb),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const send = (msg: unknown) =>
      child.stdin.write(`${typeof msg === "string" ? msg : JSON.stringify(msg)}\n`);
    send("this is not json");
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "raw", version: "1" },
      },
    });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "aic_projects", arguments: {} },
    });
    child.stdin.end();
    await new Promise((resolve) => child.on("close", resolve));
    const replies = stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id?: number; result?: unknown });
    expect(replies.map((r) => r.id)).toEqual([1, 2]);
    expect(stderr).toMatch(/protocol error \(message ignored\)/);
  });
});
