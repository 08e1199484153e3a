/**
 * The daemon's life: take the per-user lock, clear a socket left by a crashed predecessor, load
 * the handlers (only now: a daemon that loses the lock race exits without paying for them),
 * serve until idle, `shutdown` or a signal, then release everything. Runs in the foreground;
 * clients start it detached.
 */
import { appendFileSync, statSync, truncateSync, unlinkSync } from "node:fs";
import { socketAnswers } from "./client.js";
import { daemonPaths, ensureDaemonDirs, type DaemonPaths } from "./locations.js";
import { acquireDaemonLock, defaultLockDeps, type LockHolder } from "./lock.js";
import { startDaemonServer, type MethodHandler } from "./server.js";
import { PRIVATE_FILE_MODE } from "../shared/paths.js";

export const DEFAULT_IDLE_SECS = 900;

export interface DaemonService {
  handlers: Record<string, MethodHandler>;
  statusExtras?: () => Record<string, unknown>;
  /** Release what the handlers hold (database handles, watchers). */
  dispose?: () => void | Promise<void>;
}

export interface RunDaemonOptions {
  env?: NodeJS.ProcessEnv;
  build: string;
  loadService: () => Promise<DaemonService>;
  /** See DaemonServerOptions.socketCheckMs. */
  socketCheckMs?: number;
  /** Called with each log line as well as writing it to the daemon log (foreground output). */
  echo?: (line: string) => void;
}

export type RunDaemonOutcome =
  { started: true; stopReason: string } | { started: false; holder: LockHolder | null };

export async function runDaemon(opts: RunDaemonOptions): Promise<RunDaemonOutcome> {
  const env = opts.env ?? process.env;
  const paths = daemonPaths(env);
  ensureDaemonDirs(paths);
  // Everything the daemon creates (socket included) is private to the user.
  process.umask(0o077);
  const log = daemonLogger(paths, opts.echo);

  const lock = await acquireDaemonLock(
    paths.pidFile,
    defaultLockDeps(() => socketAnswers(env)),
  );
  if (!lock.acquired) return { started: false, holder: lock.holder };

  const signals = ["SIGTERM", "SIGINT", "SIGHUP"] as const;
  // A signal that arrives before the server is listening stops it as soon as it is.
  let pendingSignal: string | undefined;
  let onSignal: (signal: string) => void = (signal) => (pendingSignal = signal);
  const signalHandler = (signal: string) => onSignal(signal);
  for (const s of signals) process.on(s, signalHandler);
  // Every request path catches its own errors; should a stray promise still reject, log it
  // rather than let Node end the process for every client.
  const onRejection = (reason: unknown) =>
    log(`unhandled rejection: ${(reason as Error)?.stack ?? String(reason)}`);
  process.on("unhandledRejection", onRejection);
  try {
    removeStaleSocket(paths.socket);
    const idleSecs = idleSecsFrom(env, log);
    const service = await opts.loadService();
    const stopped = new Promise<string>((resolve) => {
      void startDaemonServer({
        socketPath: paths.socket,
        build: opts.build,
        handlers: service.handlers,
        statusExtras: service.statusExtras,
        idleMs: idleSecs * 1000,
        socketCheckMs: opts.socketCheckMs,
        log,
        onStopped: resolve,
      }).then(
        (server) => {
          onSignal = (signal) => void server.stop(`signal ${signal}`);
          if (pendingSignal) onSignal(pendingSignal);
        },
        (err: Error) => resolve(`could not listen on ${paths.socket}: ${err.message}`),
      );
    });
    const stopReason = await stopped;
    await service.dispose?.();
    log(`stopped: ${stopReason}`);
    return { started: true, stopReason };
  } finally {
    for (const s of signals) process.off(s, signalHandler);
    process.off("unhandledRejection", onRejection);
    lock.release();
  }
}

/** `AIC_DAEMON_IDLE_SECS`: seconds without a request before the daemon exits (default 900). */
export function idleSecsFrom(
  env: NodeJS.ProcessEnv,
  log: (line: string) => void = () => {},
): number {
  const raw = env.AIC_DAEMON_IDLE_SECS?.trim();
  if (!raw) return DEFAULT_IDLE_SECS;
  const secs = Number(raw);
  if (Number.isFinite(secs) && secs > 0) return secs;
  log(
    `AIC_DAEMON_IDLE_SECS="${raw}" is not a positive number of seconds; using ${DEFAULT_IDLE_SECS}`,
  );
  return DEFAULT_IDLE_SECS;
}

function removeStaleSocket(socket: string): void {
  // We hold the lock, so no live daemon owns this path: it is a leftover of a killed one.
  try {
    unlinkSync(socket);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
}

/** The log of a detached daemon (its stdio is ignored); cut back when it grows past 1 MB. */
function daemonLogger(paths: DaemonPaths, echo?: (line: string) => void): (line: string) => void {
  try {
    if (statSync(paths.log).size > 1_000_000) truncateSync(paths.log, 0);
  } catch {
    // no log yet
  }
  return (line: string) => {
    const stamped = `${new Date().toISOString()} [${process.pid}] ${line}`;
    echo?.(stamped);
    try {
      appendFileSync(paths.log, stamped + "\n", { mode: PRIVATE_FILE_MODE });
    } catch {
      // Logging must never take the daemon down.
    }
  };
}
