/**
 * The daemon's socket server: frames newline-delimited JSON, validates every request, dispatches
 * it to a method handler and answers. Nothing a client sends can stop it except `shutdown`: bad
 * JSON, unknown methods, invalid params and handler failures all become error replies.
 *
 * Built-in methods: `status` (who is running and what it holds) and `shutdown` (honoured whatever
 * the protocol version, so a newer client can always replace an older daemon). Everything else
 * comes from `handlers`.
 */
import { chmodSync, statSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { z } from "zod";
import { PRIVATE_FILE_MODE } from "../shared/paths.js";
import {
  encodeMessage,
  LineDecoder,
  LineTooLongError,
  PROTOCOL_VERSION,
  type DaemonErrorBody,
  type DaemonErrorCode,
  type DaemonIdentity,
  type DaemonResponse,
} from "./protocol.js";

export type MethodHandler = (params: unknown) => unknown;

/** "invalid <what>: field: problem; field: problem" from a zod error. */
export function describeInvalid(what: string, error: z.ZodError): string {
  const issues = error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
  return `invalid ${what}: ${issues.join("; ")}`;
}

/** Thrown by a handler for a request it cannot serve as asked; becomes a `bad_request` reply. */
export class BadRequestError extends Error {
  override name = "BadRequestError";
}

export interface DaemonServerOptions {
  socketPath: string;
  build: string;
  handlers: Record<string, MethodHandler>;
  /** Stop after this long without a request (in-flight requests keep it alive). */
  idleMs: number;
  /** Called once when the server has stopped (idle, shutdown request or signal). */
  onStopped: (reason: string) => void;
  log: (line: string) => void;
  /** How often to check that the socket file is still ours (default 5 s). */
  socketCheckMs?: number;
  /** Extra fields for the `status` reply (e.g. the projects the compiler holds warm). */
  statusExtras?: () => Record<string, unknown>;
}

export interface DaemonServer {
  identity: DaemonIdentity;
  /** Stop accepting, let in-flight requests finish (bounded), close connections. */
  stop: (reason: string) => Promise<void>;
}

const envelopeSchema = z.object({
  v: z.number().int(),
  id: z.union([z.string().max(200), z.number()]),
  method: z.string().min(1).max(100),
  params: z.unknown().optional(),
  build: z.string().max(200).optional(),
});

type RequestId = string | number | null;

/** How long `stop` waits for in-flight requests before closing their connections anyway. */
const DRAIN_MS = 10_000;

export async function startDaemonServer(opts: DaemonServerOptions): Promise<DaemonServer> {
  const identity: DaemonIdentity = {
    protocol: PROTOCOL_VERSION,
    build: opts.build,
    pid: process.pid,
  };
  const startedAt = Date.now();
  const sockets = new Set<Socket>();
  const inFlight = new Set<Promise<void>>();
  let lastActivity = Date.now();
  let requests = 0;
  let stopping: Promise<void> | null = null;
  let idleTimer: NodeJS.Timeout | undefined;
  let socketWatch: NodeJS.Timeout | undefined;

  // allowHalfOpen: a client may send its requests and end its side (e.g. `nc -U`) and still
  // receive the replies; we end our side once its last reply is written.
  const server: Server = createServer({ allowHalfOpen: true }, (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    let pending = 0;
    let clientEnded = false;
    socket.on("end", () => {
      clientEnded = true;
      if (pending === 0) socket.end();
    });
    const decoder = new LineDecoder();
    socket.on("data", (chunk: Buffer) => {
      let lines: string[];
      try {
        lines = decoder.push(chunk);
      } catch (err) {
        if (!(err instanceof LineTooLongError)) throw err;
        reply(socket, fail(null, "too_large", `${err.message}; the connection is closed`));
        socket.end();
        socket.pause();
        return;
      }
      for (const line of lines) {
        if (!line.trim()) continue;
        pending++;
        const work = answer(line).then((res) => reply(socket, res));
        inFlight.add(work);
        void work.finally(() => {
          inFlight.delete(work);
          lastActivity = Date.now();
          if (--pending === 0 && clientEnded) socket.end();
        });
      }
    });
  });

  function reply(socket: Socket, res: DaemonResponse): void {
    let text: string;
    try {
      text = encodeMessage(res);
    } catch (err) {
      // A result JSON cannot carry (a cycle, a BigInt) is the handler's bug, not a crash.
      text = encodeMessage(
        fail(res.id, "handler_failed", `the reply could not be encoded: ${(err as Error).message}`),
      );
    }
    if (!socket.destroyed && socket.writable) socket.write(text);
  }

  function fail(id: RequestId, code: DaemonErrorCode, message: string): DaemonResponse {
    const error: DaemonErrorBody = { code, message };
    if (code === "version_mismatch") error.daemon = identity;
    return { v: PROTOCOL_VERSION, id, ok: false, error };
  }

  /** Never rejects: whatever goes wrong answering one request becomes that request's reply. */
  async function answer(line: string): Promise<DaemonResponse> {
    try {
      return await answerUnsafe(line);
    } catch (err) {
      opts.log(`internal error answering a request: ${(err as Error)?.stack ?? String(err)}`);
      return fail(
        null,
        "handler_failed",
        `internal daemon error: ${(err as Error)?.message ?? err}`,
      );
    }
  }

  async function answerUnsafe(line: string): Promise<DaemonResponse> {
    requests++;
    lastActivity = Date.now();
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      return fail(null, "bad_json", "request is not valid JSON (one JSON object per line)");
    }
    const loose = (raw ?? {}) as Record<string, unknown>;
    const looseId = typeof loose.id === "string" || typeof loose.id === "number" ? loose.id : null;
    // `shutdown` is understood by every protocol version: it is how old daemons get replaced.
    if (loose.method === "shutdown") {
      setImmediate(() => void stop("shutdown requested by a client"));
      return {
        v: PROTOCOL_VERSION,
        id: looseId,
        ok: true,
        result: { stopping: true, ...identity },
      };
    }
    if (typeof loose.v === "number" && loose.v !== PROTOCOL_VERSION) {
      return fail(
        looseId,
        "version_mismatch",
        `client speaks protocol ${loose.v}, daemon ${PROTOCOL_VERSION}`,
      );
    }
    const parsed = envelopeSchema.safeParse(raw);
    if (!parsed.success) {
      return fail(looseId, "bad_request", describeInvalid("request envelope", parsed.error));
    }
    const req = parsed.data;
    if (req.build !== undefined && req.build !== opts.build) {
      return fail(
        req.id,
        "version_mismatch",
        `client build ${req.build}, daemon build ${opts.build}`,
      );
    }
    if (stopping)
      return fail(req.id, "shutting_down", "the daemon is stopping; retry or compile in-process");
    if (req.method === "status") {
      return { v: PROTOCOL_VERSION, id: req.id, ok: true, result: status() };
    }
    const handler = Object.hasOwn(opts.handlers, req.method)
      ? opts.handlers[req.method]
      : undefined;
    if (!handler) {
      const known = ["status", "shutdown", ...Object.keys(opts.handlers)].join(", ");
      return fail(req.id, "unknown_method", `unknown method "${req.method}" (known: ${known})`);
    }
    try {
      const result = await handler(req.params);
      return { v: PROTOCOL_VERSION, id: req.id, ok: true, result: result ?? null };
    } catch (err) {
      if (err instanceof BadRequestError) return fail(req.id, "bad_request", err.message);
      opts.log(`handler ${req.method} failed: ${(err as Error)?.stack ?? String(err)}`);
      return fail(
        req.id,
        "handler_failed",
        `${req.method} failed: ${(err as Error)?.message ?? err}`,
      );
    }
  }

  function status(): Record<string, unknown> {
    return {
      ...identity,
      startedAt: new Date(startedAt).toISOString(),
      uptimeMs: Date.now() - startedAt,
      idleMs: opts.idleMs,
      requests,
      inFlight: inFlight.size,
      socket: opts.socketPath,
      ...opts.statusExtras?.(),
    };
  }

  function scheduleIdleCheck(delay: number): void {
    idleTimer = setTimeout(
      () => {
        const quietFor = Date.now() - lastActivity;
        if (inFlight.size === 0 && quietFor >= opts.idleMs) {
          void stop(`idle for ${Math.round(quietFor / 1000)} s`);
        } else {
          scheduleIdleCheck(inFlight.size > 0 ? opts.idleMs : opts.idleMs - quietFor);
        }
      },
      Math.max(delay, 10),
    );
  }

  /**
   * A daemon whose socket file was deleted (its AIC home removed) or replaced cannot be reached
   * by any client again: stop instead of lingering until the idle timeout.
   */
  function watchSocketFile(ino: number): void {
    socketWatch = setInterval(() => {
      let current: number | undefined;
      try {
        current = statSync(opts.socketPath).ino;
      } catch {
        current = undefined;
      }
      if (current !== ino) void stop(`socket ${opts.socketPath} was removed or replaced`);
    }, opts.socketCheckMs ?? 5_000);
    socketWatch.unref();
  }

  function stop(reason: string): Promise<void> {
    stopping ??= (async () => {
      clearTimeout(idleTimer);
      clearInterval(socketWatch);
      opts.log(`stopping: ${reason}`);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      const drained = Promise.allSettled([...inFlight]);
      await Promise.race([drained, new Promise((r) => setTimeout(r, DRAIN_MS).unref())]);
      for (const s of sockets) s.end();
      // Give the final replies a moment to flush, then make sure nothing holds the process.
      await new Promise((r) => setTimeout(r, 20));
      for (const s of sockets) s.destroy();
      await closed;
      opts.onStopped(reason);
    })();
    return stopping;
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.socketPath, () => {
      server.off("error", reject);
      resolve();
    });
  });
  // The folder is already 0700; the socket itself is made 0600 too (umask leaves it 0700).
  chmodSync(opts.socketPath, PRIVATE_FILE_MODE);
  watchSocketFile(statSync(opts.socketPath).ino);
  server.on("error", (err) => opts.log(`server error: ${err.stack ?? err.message}`));
  scheduleIdleCheck(opts.idleMs);
  opts.log(`listening on ${opts.socketPath} (pid ${process.pid}, build ${opts.build})`);
  return { identity, stop };
}
