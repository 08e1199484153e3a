/**
 * The daemon as real processes: a bundled daemon (the real server, lock and lifecycle with test
 * handlers instead of the compiler) and bundled hook-shaped clients, as Cursor would run them.
 */
import { existsSync, rmSync, statSync } from "node:fs";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callDaemon } from "../../src/daemon/client.js";
import { daemonPaths } from "../../src/daemon/locations.js";
import { readLockHolder } from "../../src/daemon/lock.js";
import {
  bundleFixtures,
  killDaemon,
  newHome,
  run,
  runClient,
  startDaemon,
  waitForDaemon,
  type Bundles,
} from "./helpers.js";

let b: Bundles;
const homes: NodeJS.ProcessEnv[] = [];
function home(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = { ...newHome(), ...extra };
  homes.push(env);
  return env;
}

beforeAll(async () => {
  b = await bundleFixtures();
});
afterAll(() => homes.forEach(killDaemon));

/** Send raw lines on one connection and collect one reply line per request line. */
function rawExchange(env: NodeJS.ProcessEnv, payload: string, replies: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(daemonPaths(env).socket);
    let buf = "";
    socket.on("data", (d) => {
      buf += d.toString();
      const lines = buf.split("\n").filter(Boolean);
      if (lines.length >= replies) {
        socket.destroy();
        resolve(lines);
      }
    });
    socket.on("error", reject);
    socket.write(payload);
  });
}

describe("daemon client bundle", () => {
  it("pulls in nothing but the daemon's own modules (hooks bundle it; Node built-ins only)", () => {
    const outside = b.clientInputs.filter(
      (f) => !/^(src\/daemon|src\/shared|tests\/daemon\/fixtures)\//.test(f),
    );
    expect(outside).toEqual([]);
  });
});

describe("daemon lifecycle", () => {
  it("serves from a private socket and folder and reports its status", async () => {
    const env = home();
    const { child } = await startDaemon(b, env);
    const paths = daemonPaths(env);
    expect(statSync(paths.dir).mode & 0o777).toBe(0o700);
    expect(statSync(paths.socket).mode & 0o777).toBe(0o600);
    expect(statSync(paths.pidFile).mode & 0o777).toBe(0o600);
    const status = await callDaemon("status", undefined, { env, build: "test-build" });
    expect(status).toMatchObject({
      status: "ok",
      result: {
        pid: child.pid,
        build: "test-build",
        protocol: 1,
        handlers: "echo,sleep,explode,unencodable",
      },
    });
    expect(await runClient(b, env, { n: 1 })).toEqual({
      servedBy: "daemon",
      value: { echoed: { n: 1 }, pid: child.pid },
    });
    child.kill("SIGTERM");
  });

  it("answers malformed requests with errors and keeps serving", async () => {
    const env = home();
    const { child } = await startDaemon(b, env);
    const lines = [
      "this is not json",
      "42",
      "null",
      JSON.stringify({ v: 1, method: "echo" }), // no id
      JSON.stringify({ v: 1, id: "u", method: "frobnicate" }),
      JSON.stringify({ v: 1, id: "s", method: "sleep", params: { ms: "soon" } }),
      JSON.stringify({ v: 1, id: "x", method: "explode" }),
      JSON.stringify({ v: 1, id: "p", method: "__proto__" }),
      JSON.stringify({ v: 1, id: "b", method: "unencodable" }),
    ];
    const replies = (await rawExchange(env, lines.join("\n") + "\n", lines.length)).map(
      (l) =>
        JSON.parse(l) as { id: unknown; ok: boolean; error?: { code: string; message: string } },
    );
    const byCode = replies.map((r) => [r.id, r.error?.code]);
    expect(byCode).toEqual(
      expect.arrayContaining([
        [null, "bad_json"],
        [null, "bad_request"],
        [null, "bad_request"],
        [null, "bad_request"],
        ["u", "unknown_method"],
        ["s", "bad_request"],
        ["x", "handler_failed"],
        ["p", "unknown_method"],
        ["b", "handler_failed"],
      ]),
    );
    expect(replies.every((r) => r.ok === false && r.error!.message.length > 0)).toBe(true);
    expect(replies.find((r) => r.id === "x")?.error?.message).toMatch(/exploded on purpose/);
    // Still alive and correct afterwards.
    expect(await runClient(b, env, "after")).toMatchObject({ servedBy: "daemon" });
    child.kill("SIGTERM");
  });

  it("answers a client that half-closes after sending (nc -U style)", async () => {
    const env = home();
    const { child } = await startDaemon(b, env);
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(daemonPaths(env).socket);
      let buf = "";
      socket.on("data", (d) => (buf += d.toString()));
      socket.on("end", () => resolve(buf));
      socket.on("error", reject);
      socket.end(JSON.stringify({ v: 1, id: 1, method: "sleep", params: { ms: 50 } }) + "\n");
    });
    expect(JSON.parse(reply)).toMatchObject({ id: 1, ok: true, result: { slept: 50 } });
    child.kill("SIGTERM");
  });

  it("answers 20 hook processes at once, each with its own result", async () => {
    const env = home();
    const { child } = await startDaemon(b, env);
    const before = await callDaemon("status", undefined, { env });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => runClient(b, env, { client: i })),
    );
    results.forEach((r, i) =>
      expect(r).toEqual({ servedBy: "daemon", value: { echoed: { client: i }, pid: child.pid } }),
    );
    const after = await callDaemon("status", undefined, { env });
    const count = (s: typeof after) =>
      s.status === "ok" ? (s.result as { requests: number }).requests : NaN;
    expect(count(after) - count(before)).toBe(21); // 20 clients + this status call
    child.kill("SIGTERM");
  });

  it("lets only one of several simultaneous starters run; the others exit saying who runs", async () => {
    const env = home();
    const starters = Array.from({ length: 4 }, () => run([b.daemon], env));
    // The three that lose the lock exit by themselves; the winner keeps running.
    const losers = await new Promise<string[]>((resolve) => {
      const done: string[] = [];
      for (const s of starters) void s.then((r) => done.push(r.stdout) === 3 && resolve(done));
    });
    const status = await waitForDaemon(env);
    expect(readLockHolder(daemonPaths(env).pidFile)?.pid).toBe(status.pid);
    for (const out of losers) {
      expect(JSON.parse(out)).toEqual({
        started: false,
        holder: { pid: status.pid, startedAt: expect.any(Number) },
      });
    }
    process.kill(status.pid as number, "SIGTERM");
    const all = await Promise.all(starters);
    expect(all.filter((r) => JSON.parse(r.stdout).started === true)).toHaveLength(1);
  });

  it("stops after AIC_DAEMON_IDLE_SECS without requests and cleans up socket and lock", async () => {
    const env = home({ AIC_DAEMON_IDLE_SECS: "1" });
    const { exited } = await startDaemon(b, env);
    // From this process: a hook-shaped client would start a new daemon if this one were gone.
    expect(await callDaemon("echo", 1, { env })).toMatchObject({ status: "ok" });
    const res = await exited;
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({
      started: true,
      stopReason: expect.stringMatching(/^idle/),
    });
    expect(existsSync(daemonPaths(env).socket)).toBe(false);
    expect(existsSync(daemonPaths(env).pidFile)).toBe(false);
  });

  it("stops by itself when its socket file is deleted (AIC home removed)", async () => {
    const env = home();
    const { exited } = await startDaemon(b, env);
    rmSync(daemonPaths(env).dir, { recursive: true });
    const res = await exited;
    expect(JSON.parse(res.stdout)).toMatchObject({
      started: true,
      stopReason: expect.stringMatching(/was removed or replaced$/),
    });
  });

  it("finishes an in-flight request before a shutdown takes effect", async () => {
    const env = home();
    const { exited } = await startDaemon(b, env);
    const slow = callDaemon("sleep", { ms: 300 }, { env });
    await waitForInFlight(env);
    expect((await callDaemon("shutdown", undefined, { env })).status).toBe("ok");
    expect(await slow).toEqual({ status: "ok", result: { slept: 300 } });
    expect(JSON.parse((await exited).stdout)).toMatchObject({
      stopReason: "shutdown requested by a client",
    });
  });
});

describe("daemon failure and replacement", () => {
  it("with no daemon: the call starts one and is answered by it; the next call finds it", async () => {
    const env = home();
    const first = await runClient(b, env, "first");
    const status = await waitForDaemon(env);
    expect(first).toEqual({ servedBy: "daemon", value: { echoed: "first", pid: status.pid } });
    expect(await runClient(b, env, "second")).toEqual({
      servedBy: "daemon",
      value: { echoed: "second", pid: status.pid },
    });
    killDaemon(env);
  });

  it("with a daemon that cannot start: answered in-process at once", async () => {
    const env = home();
    const res = await run([b.client, "/nonexistent/aic-daemon.mjs", JSON.stringify("z")], env);
    expect(JSON.parse(res.stdout)).toEqual({
      servedBy: "in-process",
      value: { echoed: "z", inProcess: true },
    });
    expect(existsSync(daemonPaths(env).pidFile)).toBe(false);
  });

  it("kill -9 in the middle of a request: the client still answers and the next call gets a new daemon", async () => {
    const env = home();
    const { child } = await startDaemon(b, env);
    const pending = runClient(b, env, { ms: 30_000 }, "sleep");
    await waitForInFlight(env); // kill only once the daemon is really inside the request
    child.kill("SIGKILL");
    expect(await pending).toEqual({
      servedBy: "in-process",
      value: { echoed: { ms: 30_000 }, inProcess: true },
    });
    const fresh = await waitForDaemon(env);
    expect(fresh.pid).not.toBe(child.pid);
    expect(await runClient(b, env, "next")).toEqual({
      servedBy: "daemon",
      value: { echoed: "next", pid: fresh.pid },
    });
    killDaemon(env);
  });

  it("replaces a daemon of another build: clear note, and a daemon of the new build answers", async () => {
    const env = home({ TEST_DAEMON_BUILD: "old-build" });
    const { child, exited } = await startDaemon(b, env);
    const newEnv = { ...env, TEST_DAEMON_BUILD: "new-build", TEST_CLIENT_BUILD: "new-build" };
    const direct = await callDaemon("echo", 1, { env, build: "new-build" });
    expect(direct).toMatchObject({
      status: "error",
      error: {
        code: "version_mismatch",
        message: "client build new-build, daemon build old-build",
        daemon: { build: "old-build", pid: child.pid },
      },
    });
    const res = await run([b.client, b.daemon, JSON.stringify("x")], newEnv);
    expect(res.stderr).toMatch(/replacing daemon: client build new-build, daemon build old-build/);
    expect((await exited).code).toBe(0); // the old one shut down
    const fresh = await waitForDaemon(newEnv);
    expect(fresh).toMatchObject({ build: "new-build" });
    expect(fresh.pid).not.toBe(child.pid);
    expect(JSON.parse(res.stdout)).toEqual({
      servedBy: "daemon",
      value: { echoed: "x", pid: fresh.pid },
    });
    expect(await runClient(b, newEnv, "y")).toMatchObject({ servedBy: "daemon" });
    killDaemon(env);
  });

  it("answers a client of another protocol version with version_mismatch", async () => {
    const env = home();
    const { child } = await startDaemon(b, env);
    const [reply] = await rawExchange(
      env,
      JSON.stringify({ v: 99, id: "future", method: "compile" }) + "\n",
      1,
    );
    expect(JSON.parse(reply!)).toMatchObject({
      id: "future",
      ok: false,
      error: { code: "version_mismatch", daemon: { protocol: 1, pid: child.pid } },
    });
    child.kill("SIGTERM");
  });
});

/** Poll `status` until the daemon reports a request in progress. */
async function waitForInFlight(env: NodeJS.ProcessEnv): Promise<void> {
  for (;;) {
    const s = await callDaemon("status", undefined, { env });
    if (s.status === "ok" && (s.result as { inFlight: number }).inFlight > 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}
