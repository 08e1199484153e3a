/** The pure pieces behind the hooks, table-tested (the hook processes are tested elsewhere). */
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import {
  closeSync,
  constants,
  mkdtempSync,
  openSync,
  readFileSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { criticalReminders } from "../../src/integrations/cursor/architect-rules.js";
import { readCompileOutput } from "../../src/integrations/cursor/compile-output.js";
import { editedPaths } from "../../src/integrations/cursor/edit-payload.js";
import { checkCommand, splitShellCommands } from "../../src/integrations/cursor/git-no-verify.js";
import {
  isWeakIntent,
  OMITTED_INTENT,
  promptAsIntent,
} from "../../src/integrations/cursor/intent.js";
import { classifyPreCompact, hostUsage } from "../../src/integrations/cursor/station.js";
import {
  mcpArguments,
  mcpToolName,
  withMcpArguments,
} from "../../src/integrations/cursor/tool-identity.js";
import { aicPackageRootForHook } from "../../src/integrations/shared/aic-package-root.js";
import {
  idFromTranscriptPath,
  resolveConversationId,
  safeKey,
} from "../../src/integrations/shared/ids.js";
import { healthLogPath, recordHookError } from "../../src/integrations/shared/health.js";
import { hookProjectHash } from "../../src/integrations/shared/hook-state.js";
import { sha256Hex } from "../../src/integrations/shared/sha256.js";
import { isUsableProjectRoot } from "../../src/integrations/shared/project-root.js";
import { readBoundedStdin } from "../../src/integrations/shared/stdin.js";
import { projectHash } from "../../src/shared/paths.js";

describe("git hook bypass detection", () => {
  const blocked = [
    "git commit --no-verify -m wip",
    "git commit -n -m 'quick fix'",
    "git commit -anm wip",
    "git commit -am wip -n",
    'git commit "--no-verify" -m x',
    "git push --no-verify",
    "git push origin main --no-verif",
    "git merge --no-verify feature",
    "git -C repo commit -n",
    "cd repo && git commit --no-verify",
    "npm test; git commit -n -m ok",
    "git -c core.hooksPath=/dev/null commit -m x",
    "HUSKY=0 git commit -m x",
    "bash -c 'git commit --no-verify -m x'",
    "/usr/bin/git commit -n",
  ];
  const allowed = [
    "git log -n 5 --oneline",
    "git push -n origin main",
    "git merge -n feature",
    'git commit -m "docs: explain why --no-verify is blocked"',
    "git commit -m 'use -n carefully'",
    "git commit -m -n",
    "git commit -F notes-n.txt",
    "git commit -C HEAD -a",
    "git commit -- --no-verify",
    'echo "git commit --no-verify"',
    "git status # --no-verify",
    "git commit --verbose",
  ];
  for (const c of blocked) it(`blocks: ${c}`, () => expect(checkCommand(c).blocked).toBe(true));
  for (const c of allowed) it(`allows: ${c}`, () => expect(checkCommand(c).blocked).toBe(false));

  it("splits words with shell quoting", () => {
    expect(splitShellCommands(`git commit -m "a \\"b\\" c" && echo 'x y'z`)).toEqual([
      ["git", "commit", "-m", 'a "b" c'],
      ["echo", "x yz"],
    ]);
  });
});

describe("MCP tool identity", () => {
  const cases: [unknown, string | undefined][] = [
    ["MCP:aic_compile", "aic_compile"],
    ["mcp__aic__aic_compile", "aic_compile"],
    ["mcp__aic-dev__aic_chat_summary", "aic_chat_summary"],
    ["MCP:aic:aic_compile", "aic_compile"],
    ["Grep", undefined],
    ["Read", undefined],
    ["aic_compile please", undefined],
    [null, undefined],
  ];
  for (const [name, tool] of cases)
    it(`${String(name)} → ${tool}`, () =>
      expect(mcpToolName({ tool_name: name, tool_input: { pattern: "aic_compile" } })).toBe(tool));
  it("reads a generic MCP envelope by its tool field, not its text", () => {
    expect(
      mcpToolName({ tool_name: "MCP", tool_input: { server: "aic", toolName: "aic_compile" } }),
    ).toBe("aic_compile");
    expect(mcpToolName({ tool_name: "MCP", tool_input: { query: "aic_compile" } })).toBeUndefined();
  });
  it("updates arguments inside an envelope and flat inputs alike", () => {
    const envelope = {
      tool_name: "MCP",
      tool_input: { server: "aic", toolName: "aic_compile", arguments: { intent: "x" } },
    };
    expect(mcpArguments(envelope)).toEqual({ intent: "x" });
    expect(withMcpArguments(envelope, { intent: "y" })).toEqual({
      server: "aic",
      toolName: "aic_compile",
      arguments: { intent: "y" },
    });
    const flat = { tool_name: "MCP:aic_compile", tool_input: JSON.stringify({ intent: "x" }) };
    expect(mcpArguments(flat)).toEqual({ intent: "x" });
    expect(withMcpArguments(flat, { intent: "y" })).toEqual({ intent: "y" });
  });
});

describe("ids", () => {
  it("resolves the conversation id in order", () => {
    expect(resolveConversationId({ conversation_id: "a", transcript_path: "/t/b.jsonl" }, {})).toBe(
      "a",
    );
    expect(
      resolveConversationId({ transcript_path: "/t/b.jsonl" }, { AIC_CONVERSATION_ID: "e" }),
    ).toBe("b");
    expect(resolveConversationId({ session_id: "s" }, { AIC_CONVERSATION_ID: "e" })).toBe("e");
    expect(resolveConversationId({ session_id: "s", generation_id: "g" }, {})).toBe("s");
    expect(
      resolveConversationId({ generation_id: "g", conversation_id: null }, {}),
    ).toBeUndefined();
    expect(resolveConversationId({ conversation_id: "bad\nid" }, {})).toBeUndefined();
  });
  it("takes a transcript's basename without .jsonl, on any separator", () => {
    expect(idFromTranscriptPath("C:\\Users\\x\\agent-transcripts\\abc-1.jsonl")).toBe("abc-1");
    expect(idFromTranscriptPath(null)).toBeUndefined();
  });
  it("makes file-safe keys that never escape their folder", () => {
    expect(safeKey("6f1c2a7e-3b1d")).toBe("6f1c2a7e-3b1d");
    for (const id of ["../../etc", "a/b", ".", "..", "x".repeat(300)]) {
      const key = safeKey(id);
      expect(key).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]*$/);
      expect(key.length).toBeLessThanOrEqual(60);
    }
    expect(safeKey("a/b")).not.toBe(safeKey("a_b"));
  });
});

describe("bounded stdin", () => {
  const dir = mkdtempSync(join(tmpdir(), "aic-stdin-"));
  const fileFd = (name: string, text: string): number => {
    writeFileSync(join(dir, name), text);
    return openSync(join(dir, name), "r");
  };

  it("returns a complete JSON object without waiting for the end of input", async () => {
    const fifo = join(dir, "fifo-complete");
    execFileSync("mkfifo", [fifo]);
    const fd = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
    writeSync(fd, '{"a":{"b":"}"}} \n');
    expect(await readBoundedStdin({ fd, timeoutMs: 5000 })).toEqual({
      kind: "ok",
      text: '{"a":{"b":"}"}} \n',
    });
    closeSync(fd);
  });

  it("returns the text at end of input", async () => {
    const fd = fileFd("ok", '{"a":"é"}');
    expect(await readBoundedStdin({ fd })).toEqual({ kind: "ok", text: '{"a":"é"}' });
    closeSync(fd);
  });
  it("stops at the size cap", async () => {
    const fd = fileFd("big", "x".repeat(11));
    expect(await readBoundedStdin({ fd, maxBytes: 10 })).toEqual({ kind: "too-large", bytes: 11 });
    closeSync(fd);
  });
  it("gives up on a writer that never closes, keeping what arrived", async () => {
    const fifo = join(dir, "fifo");
    execFileSync("mkfifo", [fifo]);
    // Read and write ends in one non-blocking descriptor: data, then "nothing yet" forever.
    const fd = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
    writeSync(fd, '{"a":1,');
    expect(await readBoundedStdin({ fd, timeoutMs: 100 })).toEqual({
      kind: "timeout",
      text: '{"a":1,',
    });
    closeSync(fd);
  });
});

describe("payload shapes", () => {
  it("reads every known afterFileEdit shape", () => {
    expect(editedPaths({ file_path: "a.ts" })).toEqual(["a.ts"]);
    expect(editedPaths({ files: ["a.ts", { path: "b.ts" }, null, 3] })).toEqual(["a.ts", "b.ts"]);
    expect(
      editedPaths({
        edit: { filePath: "c.ts" },
        edits: [{ file_path: "d.ts" }, { old_string: "x" }],
      }),
    ).toEqual(["c.ts", "d.ts"]);
    expect(
      editedPaths({
        paths: ["e.ts"],
        editedFiles: ["f.ts"],
        edited_paths: ["g.ts"],
        filePath: "h.ts",
      }).sort(),
    ).toEqual(["e.ts", "f.ts", "g.ts", "h.ts"]);
    expect(editedPaths({ file_path: null, files: "not-a-list" })).toEqual([]);
  });

  it("reads aic_compile output as a string or an object", () => {
    const body = JSON.stringify({
      prompt: "p",
      context: { files: [{ path: "src/a.ts" }, { path: "src/b.ts" }] },
    });
    const obj = { content: [{ type: "text", text: body }] };
    expect(readCompileOutput(obj)).toEqual({ ok: true, files: ["src/a.ts", "src/b.ts"] });
    expect(readCompileOutput(JSON.stringify(obj))).toEqual({
      ok: true,
      files: ["src/a.ts", "src/b.ts"],
    });
    expect(readCompileOutput({ ...obj, isError: true }).ok).toBe(false);
    expect(
      readCompileOutput({ content: [{ type: "text", text: '{"error":"bad root"}' }] }),
    ).toEqual({
      ok: false,
      files: [],
      error: "bad root",
    });
    expect(readCompileOutput(undefined).ok).toBe(false);
    // The MCP tool's real shape: the prompt as text, then a meta line.
    const prompt =
      "# Task\n\nfix login\n\n# Context\n\n## src/auth/service.ts (full)\ncode\n## src/a b.ts (regions: 2)\n";
    expect(
      readCompileOutput({
        content: [
          { type: "text", text: prompt },
          { type: "text", text: "AIC meta: {}" },
        ],
      }),
    ).toEqual({
      ok: true,
      files: ["src/auth/service.ts", "src/a b.ts"],
    });
  });

  it("classifies preCompact host fires strictly and never estimates usage", () => {
    const host = { hook_event_name: "preCompact", generation_id: "g", context_usage_percent: 91.4 };
    expect(classifyPreCompact(host, [])).toBe("cursor-host-precompact");
    expect(classifyPreCompact({ ...host, generation_id: "" }, [])).toBe(
      "cursor-precompact-synthetic",
    );
    expect(classifyPreCompact({ ...host, context_usage_percent: "91" }, [])).toBe(
      "cursor-precompact-synthetic",
    );
    expect(classifyPreCompact({ trigger: "auto", context_tokens: 1 }, [])).toBe(
      "cursor-precompact-synthetic",
    );
    expect(classifyPreCompact(host, ["--event-class=cursor-precompact-synthetic"])).toBe(
      "cursor-precompact-synthetic",
    );
    expect(hostUsage({ context_tokens: 5, prompt: "x".repeat(4000) })).toEqual({
      context_tokens: 5,
      context_usage_percent: null,
      context_window_size: null,
    });
  });
});

describe("intents and rules", () => {
  it("treats placeholders and follow-ups as weak, real requests as strong", () => {
    for (const w of ["", "  ", "task", "Fix it.", "continue", "Yes!", OMITTED_INTENT, undefined, 5])
      expect(isWeakIntent(w)).toBe(true);
    for (const s of ["fix login 500 on unicode password", "add retry to http client"])
      expect(isWeakIntent(s)).toBe(false);
  });
  it("keeps the user's words exactly, capped by characters", () => {
    expect(promptAsIntent("  line 1\n\tline 2 é ")).toBe("line 1\n\tline 2 é");
    expect(Array.from(promptAsIntent("🚀".repeat(9000)))).toHaveLength(8000);
  });
  it("extracts only the Critical reminders bullets", () => {
    const md =
      "# A\n- no\n### Critical Reminders\n- one\n  two\n+ three\n#### sub\n- four\n### Next\n- five";
    expect(criticalReminders(md)).toEqual(["one two", "three", "four"]);
    expect(criticalReminders("# nothing here")).toEqual([]);
  });
});

describe("package root for a deployed hook", () => {
  it("prefers the installer's literal, then AIC_PACKAGE_ROOT, then two folders up", () => {
    expect(
      aicPackageRootForHook({ AIC_PACKAGE_ROOT: "/env" }, "/pkg/dist/hooks", "/deployed"),
    ).toBe("/deployed");
    expect(
      aicPackageRootForHook(
        { AIC_PACKAGE_ROOT: "/env" },
        "/pkg/dist/hooks",
        "__AIC_PACKAGE_ROOT__",
      ),
    ).toBe("/env");
    expect(aicPackageRootForHook({}, "/pkg/dist/hooks", "__AIC_PACKAGE_ROOT__")).toBe("/pkg");
  });
});

describe("hook-side SHA-256 (no node:crypto at start-up)", () => {
  it("equals node:crypto for any string, across block boundaries", () => {
    for (const n of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000])
      expect(sha256Hex("a".repeat(n))).toBe(
        createHash("sha256").update("a".repeat(n)).digest("hex"),
      );
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), (s) => {
        expect(sha256Hex(s)).toBe(createHash("sha256").update(s).digest("hex"));
      }),
      { numRuns: 500 },
    );
  });
  it("keys hook state like paths.projectHash", () => {
    for (const root of ["/home/dev/projects/shop-api", "/tmp/é 中文/x/..", "relative/dir"])
      expect(hookProjectHash(root)).toBe(projectHash(root));
  });
});

describe("usable project roots", () => {
  it("refuses the filesystem root, the home folder and ~/.cursor", () => {
    expect(isUsableProjectRoot("/", "/home/u")).toBe(false);
    expect(isUsableProjectRoot("/home/u", "/home/u")).toBe(false);
    expect(isUsableProjectRoot("/home/u/.cursor", "/home/u")).toBe(false);
    expect(isUsableProjectRoot("/home/u/projects/shop", "/home/u")).toBe(true);
  });
});

describe("health log", () => {
  it("appends one line per error, rotates past 1 MiB, and never throws", () => {
    const home = mkdtempSync(join(tmpdir(), "aic-health-"));
    const env = { AIC_HOME: home };
    recordHookError(
      { hook: "AIC-x", stage: "read stdin", error: new Error("bad"), projectRoot: "/p" },
      env,
    );
    const file = healthLogPath(env);
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({
      hook: "AIC-x",
      stage: "read stdin",
      message: "bad",
      projectRoot: "/p",
    });
    writeFileSync(file, "x".repeat(1024 * 1024 + 1));
    recordHookError({ hook: "AIC-x", stage: "s", error: "again" }, env);
    expect(readFileSync(`${file}.1`, "utf8")).toHaveLength(1024 * 1024 + 1);
    expect(readFileSync(file, "utf8").trim().split("\n")).toHaveLength(1);
    const blocked = join(home, "not-a-dir");
    writeFileSync(blocked, "");
    expect(() =>
      recordHookError({ hook: "AIC-x", stage: "s", error: "x" }, { AIC_HOME: blocked }),
    ).not.toThrow();
  });
});
