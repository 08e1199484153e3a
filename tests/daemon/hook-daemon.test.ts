/**
 * The real thing end to end: the built `aic daemon` (dist/cli.js) serving the real compile, and
 * the AIC-compile-context hook run as Cursor runs it. Needs `npm run build` (npm test does it).
 */
import { cpSync, existsSync, mkdirSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildId } from "../../src/daemon/build-id.js";
import { callDaemon } from "../../src/daemon/client.js";
import {
  buildHooks,
  fixture,
  makeSandbox,
  REPO_ROOT,
  runHook,
  type Sandbox,
} from "../integrations/helpers.js";
import { killDaemon, run, waitForDaemon } from "./helpers.js";

const CLI = join(REPO_ROOT, "dist/cli.js");
const built = existsSync(CLI) && existsSync(join(REPO_ROOT, "dist/service/compilation-service.js"));
if (!built) console.warn("tests/daemon/hook-daemon: dist/ not built; run `npm run build` first");

let hooks: string;
const sandboxes: Sandbox[] = [];
beforeAll(async () => {
  if (built) hooks = await buildHooks();
});
afterAll(() => sandboxes.forEach((sb) => killDaemon(sb.env)));

function project(): Sandbox {
  const sb = makeSandbox();
  sandboxes.push(sb);
  sb.env.AIC_PACKAGE_ROOT = REPO_ROOT;
  delete sb.env.AIC_DAEMON; // the shared sandbox turns the daemon off; here it is the subject
  mkdirSync(join(sb.root, "src"));
  writeFileSync(
    join(sb.root, "src", "billing.py"),
    "def charge(amount):\n    return round(amount * 1.2, 2)\n",
  );
  writeFileSync(
    join(sb.root, "src", "users.py"),
    "def create_user(name):\n    return {'name': name}\n",
  );
  writeFileSync(join(sb.root, "README.md"), "# shop\nBilling and users.\n");
  return sb;
}

async function sessionStart(sb: Sandbox): Promise<string> {
  const r = await runHook(hooks, "AIC-compile-context.cjs", sb, fixture("sessionStart", sb.root));
  expect(r.code).toBe(0);
  return String(r.json?.additional_context ?? "");
}

function compiles(status: Record<string, unknown>, root: string): number {
  const projects = status.projects as Record<string, { compiles: number }>;
  return projects[root]?.compiles ?? 0;
}

describe.skipIf(!built)("AIC-compile-context with the daemon", () => {
  it("with no daemon starts one that answers, stays warm, and sees edited files", async () => {
    const sb = project();
    const first = await sessionStart(sb);
    expect(first).toContain("billing.py");

    const status = await waitForDaemon(sb.env); // the first call started it and it compiled
    expect(compiles(status, sb.root)).toBe(1);

    expect(await sessionStart(sb)).toBe(first); // same answer, from the same daemon
    expect(compiles(await waitForDaemon(sb.env), sb.root)).toBe(2);

    writeFileSync(
      join(sb.root, "src", "billing.py"),
      "def charge(amount):\n    return round(amount * 1.2, 2)\n\ndef refund_with_marker_7q(amount):\n    return -amount\n",
    );
    expect(await sessionStart(sb)).toContain("refund_with_marker_7q");
    const after = await waitForDaemon(sb.env);
    expect(compiles(after, sb.root)).toBe(3);
    expect(after.pid).toBe(status.pid);
  });

  it("replaces the daemon of an older install (another build) and answers from the new one", async () => {
    const sb = project();
    // The "old install": the same code in another package root, built at another time.
    const old = join(sb.home, "old-aic");
    cpSync(join(REPO_ROOT, "dist"), join(old, "dist"), { recursive: true });
    cpSync(join(REPO_ROOT, "package.json"), join(old, "package.json"));
    symlinkSync(join(REPO_ROOT, "node_modules"), join(old, "node_modules"));
    utimesSync(join(old, "dist", "cli.js"), new Date(1e12), new Date(1e12));
    await run([join(old, "dist", "cli.js"), "daemon", "start"], sb.env);
    const before = await waitForDaemon(sb.env);
    expect(before.build).toBe(buildId(old));

    expect(await sessionStart(sb)).toContain("billing.py");
    const after = await waitForDaemon(sb.env);
    expect(after.pid).not.toBe(before.pid);
    expect(after.build).toBe(buildId(REPO_ROOT));
    expect(compiles(after, sb.root)).toBe(1); // the new daemon answered the hook
  });

  it("answers in-process when no daemon can start (a package without dist/cli.js)", async () => {
    const sb = project();
    // The in-process path loads <package>/dist/service; only the daemon's entry is missing.
    const pkg = join(sb.home, "aic-without-cli");
    mkdirSync(join(pkg, "dist"), { recursive: true });
    symlinkSync(join(REPO_ROOT, "dist", "service"), join(pkg, "dist", "service"));
    sb.env.AIC_PACKAGE_ROOT = pkg;
    expect(await sessionStart(sb)).toContain("billing.py");
    expect(await callDaemon("status", undefined, { env: sb.env })).toMatchObject({
      status: "unavailable",
    });
  });

  it("answers 20 hook processes started at once, each with its own compile", async () => {
    const sb = project();
    await run([CLI, "daemon", "start"], sb.env);
    const before = compiles(await waitForDaemon(sb.env), sb.root);
    const runs = await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const payload = fixture("sessionStart", sb.root);
        // Distinct conversations and models: 20 real compiles, not result-cache hits.
        Object.assign(payload, {
          conversation_id: `conv-${i}`,
          session_id: `conv-${i}`,
          model: `m-${i}`,
        });
        return runHook(hooks, "AIC-compile-context.cjs", sb, payload);
      }),
    );
    runs.forEach((r, i) => {
      expect(r.code).toBe(0);
      expect(r.json?.env).toEqual({ AIC_PROJECT_ROOT: sb.root, AIC_CONVERSATION_ID: `conv-${i}` });
      expect(String(r.json?.additional_context)).toContain("billing.py");
    });
    expect(compiles(await waitForDaemon(sb.env), sb.root) - before).toBe(20); // none fell back
  });

  it("refuses invalid compile requests with the reason and keeps serving", async () => {
    const sb = project();
    const started = await run([CLI, "daemon", "start"], sb.env);
    expect(started.stdout).toMatch(/aic daemon: started \(pid \d+\)/);
    const relative = await callDaemon(
      "compile",
      { intent: "x", projectRoot: "rel/dir" },
      { env: sb.env },
    );
    expect(relative).toMatchObject({ status: "error", error: { code: "bad_request" } });
    const wrongType = await callDaemon(
      "compile",
      { intent: 5, projectRoot: sb.root },
      { env: sb.env },
    );
    expect(wrongType).toMatchObject({
      status: "error",
      error: { code: "bad_request", message: expect.stringMatching(/intent/) },
    });
    const ok = await callDaemon(
      "compile",
      { intent: "charge amount", projectRoot: sb.root },
      { env: sb.env },
    );
    expect(ok).toMatchObject({ status: "ok", result: { reparented: false } });
    expect(JSON.stringify(ok)).toContain("billing.py");
  });

  it("aic daemon start | status | stop", async () => {
    const sb = project();
    const cli = (...args: string[]) => run([CLI, "daemon", ...args], sb.env);
    const down = await cli("status");
    expect(down.code).toBe(3);
    // Says where it looked, not "not running (no daemon is running)".
    expect(down.stdout).toMatch(/^aic daemon: not running \(nothing listens on .*daemon\.sock\)$/m);

    const up = await cli("start");
    const pid = Number(/pid (\d+)/.exec(up.stdout)?.[1]);
    expect(pid).toBeGreaterThan(0);
    expect((await cli("start")).stdout).toContain(`already running (pid ${pid})`);

    const status = JSON.parse((await cli("status", "--json")).stdout) as Record<string, unknown>;
    expect(status).toMatchObject({ running: true, pid, protocol: 1, currentBuild: true });

    expect((await cli("stop")).stdout).toContain(`stopped (pid ${pid})`);
    expect((await cli("status")).code).toBe(3);
    expect((await cli("stop")).stdout).toContain("not running");
  });
});
