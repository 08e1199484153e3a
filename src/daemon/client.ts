/**
 * The daemon client. Bundled into the Cursor hooks, so: Node built-ins only, small, and it never
 * throws for a missing or dying daemon; it reports what happened and the caller falls back.
 *
 * `viaDaemonOrInProcess` is the whole hook policy in one call (see there).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createConnection, type Socket } from "node:net";
import { join } from "node:path";
import { daemonPaths } from "./locations.js";
import { processIsAlive, readLockHolder } from "./lock.js";
import {
  encodeMessage,
  LineDecoder,
  PROTOCOL_VERSION,
  type DaemonErrorBody,
  type DaemonResponse,
} from "./protocol.js";

export interface DaemonClientOptions {
  env?: NodeJS.ProcessEnv;
  /** This client's build id (build-id.ts); omitted = compare protocol versions only. */
  build?: string;
  /** A listening unix socket accepts at once; this only guards a wedged daemon. */
  connectTimeoutMs?: number;
  /** How long to wait for the reply once connected. */
  timeoutMs?: number;
}

export type DaemonCallResult =
  | { status: "ok"; result: unknown }
  /** Nothing listening (no socket, refused, connect timeout). */
  | { status: "unavailable"; reason: string }
  /** Connected, but the connection died before the reply (daemon crashed or was killed). */
  | { status: "lost"; reason: string }
  | { status: "timeout"; reason: string }
  /** The daemon answered with an error (version_mismatch, bad_request, handler_failed, ...). */
  | { status: "error"; error: DaemonErrorBody };

const DEFAULT_CONNECT_TIMEOUT_MS = 500;
const DEFAULT_TIMEOUT_MS = 15_000;
/** A daemon is up in ~0.3 s on an idle machine; allow for a loaded one. */
const DEFAULT_START_WAIT_MS = 3_000;
let nextId = 0;

/** Send one request on a fresh connection and wait for its reply. */
export async function callDaemon(
  method: string,
  params: unknown,
  opts: DaemonClientOptions = {},
): Promise<DaemonCallResult> {
  const socketPath = daemonPaths(opts.env).socket;
  const socket = await connect(socketPath, opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
  if (typeof socket === "string") return { status: "unavailable", reason: socket };
  const id = `${process.pid}-${++nextId}`;
  const request = { v: PROTOCOL_VERSION, id, method, params, build: opts.build };
  return new Promise<DaemonCallResult>((resolve) => {
    const decoder = new LineDecoder();
    let settled = false;
    const finish = (result: DaemonCallResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timer = setTimeout(
      () => finish({ status: "timeout", reason: `no reply to ${method} within ${timeoutMs} ms` }),
      timeoutMs,
    );
    socket.on("data", (chunk: Buffer) => {
      let lines: string[];
      try {
        lines = decoder.push(chunk);
      } catch (err) {
        return finish({ status: "lost", reason: (err as Error).message });
      }
      for (const line of lines) {
        let res: DaemonResponse;
        try {
          res = JSON.parse(line) as DaemonResponse;
        } catch {
          return finish({ status: "lost", reason: "the daemon sent a line that is not JSON" });
        }
        if (res.id !== id && res.id !== null) continue;
        return finish(
          res.ok ? { status: "ok", result: res.result } : { status: "error", error: res.error },
        );
      }
    });
    socket.on("error", (err) => finish({ status: "lost", reason: err.message }));
    socket.on("close", () =>
      finish({ status: "lost", reason: "the daemon closed the connection before replying" }),
    );
    socket.write(encodeMessage(request));
  });
}

/** How to start a daemon: `node <aicPackageRoot>/dist/cli.js daemon` for an installed AIC. */
export interface DaemonStartCommand {
  command: string;
  args: string[];
}

export function daemonStartCommand(aicPackageRoot: string): DaemonStartCommand {
  return { command: process.execPath, args: [join(aicPackageRoot, "dist", "cli.js"), "daemon"] };
}

/** Start a daemon that outlives this process. If one is already running, the new one just exits. */
export function spawnDetachedDaemon(
  start: DaemonStartCommand,
  env: NodeJS.ProcessEnv = process.env,
): ChildProcess {
  // cwd "/": a daemon must not keep the folder of whichever project started it busy.
  const child = spawn(start.command, start.args, {
    detached: true,
    stdio: "ignore",
    env,
    cwd: "/",
  });
  child.on("error", () => {}); // a missing node/cli.js must not crash the caller
  child.unref();
  return child;
}

/**
 * Wait (bounded) until a daemon answers on the socket. Gives up at once if the daemon we started
 * failed (non-zero exit, spawn error); exit 0 means another starter won, whose daemon will answer.
 */
async function waitForDaemonStart(
  child: ChildProcess,
  env: NodeJS.ProcessEnv,
  waitMs: number,
): Promise<boolean> {
  let failed = false;
  child.once("exit", (code) => (failed ||= code !== 0));
  child.once("error", () => (failed = true));
  const deadline = Date.now() + waitMs;
  while (!failed && Date.now() < deadline) {
    if (await socketAnswers(env)) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return false;
}

export type StopOutcome = "stopped" | "not-running" | "still-running";

/** Ask whatever daemon runs to stop, and wait (bounded) until it has released its lock. */
export async function stopDaemon(
  opts: DaemonClientOptions & { waitMs?: number } = {},
): Promise<StopOutcome> {
  const pidFile = daemonPaths(opts.env).pidFile;
  const holder = readLockHolder(pidFile);
  const res = await callDaemon("shutdown", undefined, {
    ...opts,
    build: undefined,
    timeoutMs: 2_000,
  });
  const holderAlive = holder !== null && processIsAlive(holder.pid);
  if (res.status !== "ok" && !holderAlive) return "not-running";
  const deadline = Date.now() + (opts.waitMs ?? 5_000);
  for (;;) {
    const now = readLockHolder(pidFile);
    if (!now || now.pid !== holder?.pid || !processIsAlive(now.pid)) return "stopped";
    if (Date.now() >= deadline) return "still-running";
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface ViaDaemonOptions extends DaemonClientOptions {
  start: DaemonStartCommand;
  /** With no daemon: how long to wait for the one we start before computing in-process. */
  startWaitMs?: number;
  /** Receives one line per fallback, e.g. for the hook health log. */
  note?: (message: string) => void;
}

/** The daemon's reply is JSON of the daemon's making (unknown); the fallback's is the caller's. */
export type Served<T> =
  { servedBy: "daemon"; value: unknown } | { servedBy: "in-process"; value: T };

/** Thrown when the daemon answered but refused or failed the request itself. */
export class DaemonRequestError extends Error {
  override name = "DaemonRequestError";
  constructor(readonly error: DaemonErrorBody) {
    super(`AIC daemon: ${error.message} (${error.code})`);
  }
}

/**
 * Daemon first, in-process otherwise.
 *
 * - No daemon (or one of another build, which is asked to shut down first): start one and wait
 *   for it (≤ startWaitMs) and let it answer. The caller only waits on a socket meanwhile, so its
 *   own deadline keeps working, and the work lands in the daemon that serves the next call. If
 *   it does not come up in time, compute in-process.
 * - The connection dies mid-request (daemon killed): start a new daemon for the next call and
 *   compute this answer in-process.
 * - The daemon refuses or fails the request (bad_request, handler_failed): thrown as
 *   DaemonRequestError, since computing in-process would fail the same way. A reply timeout is
 *   thrown too: there is no time left for a second attempt.
 */
export async function viaDaemonOrInProcess<T>(
  method: string,
  params: unknown,
  inProcess: () => Promise<T>,
  opts: ViaDaemonOptions,
): Promise<Served<T>> {
  const env = opts.env ?? process.env;
  const deadline = Date.now() + (opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  let res = await callDaemon(method, params, opts);
  const mismatch = res.status === "error" && res.error.code === "version_mismatch";
  if (res.status === "unavailable" || mismatch) {
    if (res.status === "error") {
      opts.note?.(`replacing daemon: ${res.error.message}`);
      await stopDaemon({ ...opts, waitMs: 2_000 });
    }
    const child = spawnDetachedDaemon(opts.start, env);
    if (await waitForDaemonStart(child, env, opts.startWaitMs ?? DEFAULT_START_WAIT_MS)) {
      res = await callDaemon(method, params, {
        ...opts,
        timeoutMs: Math.max(1, deadline - Date.now()),
      });
    }
  } else if (res.status === "lost") {
    opts.note?.(`daemon connection lost (${res.reason}); computed in-process`);
    spawnDetachedDaemon(opts.start, env);
    return { servedBy: "in-process", value: await inProcess() };
  }
  if (res.status === "ok") return { servedBy: "daemon", value: res.result };
  if (res.status === "timeout") throw new Error(`AIC daemon: ${res.reason}`);
  if (res.status === "error" && !["version_mismatch", "shutting_down"].includes(res.error.code)) {
    throw new DaemonRequestError(res.error);
  }
  return { servedBy: "in-process", value: await inProcess() };
}

/** Resolves to a connected socket, or to the reason there is none. */
function connect(path: string, timeoutMs: number): Promise<Socket | string> {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(`no answer from ${path} within ${timeoutMs} ms`);
    }, timeoutMs);
    socket.once("connect", () => {
      clearTimeout(timer);
      socket.removeAllListeners("error");
      resolve(socket);
    });
    socket.once("error", (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve(
        err.code === "ENOENT"
          ? `nothing listens on ${path}`
          : `${err.code ?? err.message} on ${path}`,
      );
    });
  });
}

/** True when a daemon accepts connections on the socket (used by the lock's staleness check). */
export async function socketAnswers(env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const socket = await connect(daemonPaths(env).socket, DEFAULT_CONNECT_TIMEOUT_MS);
  if (typeof socket === "string") return false;
  socket.destroy();
  return true;
}
