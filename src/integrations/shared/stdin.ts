/**
 * Bounded stdin for hooks. Cursor writes one JSON document and closes the pipe; a writer that
 * sends too much or never closes must not make a hook hang or run out of memory.
 *
 * fd 0 is read with fs.read: it loads no stream or socket machinery, which is a large share of a
 * hook's own start-up cost (bench/hooks-speed.mjs). Reading stops at the end of input or as soon
 * as a complete JSON object has arrived. A read blocks a libuv worker, not the main thread, so
 * the time cap still fires; `pendingRead()` then tells the caller that a normal exit would wait
 * for that read (see run-hook.ts).
 */
import { read } from "node:fs";

export const STDIN_MAX_BYTES = 8 * 1024 * 1024;
export const STDIN_TIMEOUT_MS = 5_000;

export type StdinResult =
  | { kind: "ok"; text: string }
  | { kind: "too-large"; bytes: number }
  /** The writer kept the pipe open; `text` is what arrived (often a complete document). */
  | { kind: "timeout"; text: string };

export interface StdinOptions {
  maxBytes?: number;
  timeoutMs?: number;
  /** The descriptor to read; 0 by default (tests pass files and FIFOs). */
  fd?: number;
}

let readInFlight = false;
/** True while a read of fd 0 is blocked in a worker (the writer has not closed stdin). */
export function pendingRead(): boolean {
  return readInFlight;
}

export function readBoundedStdin(opts: StdinOptions = {}): Promise<StdinResult> {
  const maxBytes = opts.maxBytes ?? STDIN_MAX_BYTES;
  const timeoutMs = opts.timeoutMs ?? STDIN_TIMEOUT_MS;
  return readFd(opts.fd ?? 0, maxBytes, timeoutMs);
}

function readFd(fd: number, maxBytes: number, timeoutMs: number): Promise<StdinResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    let settled = false;
    const finish = (result: StdinResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const text = (): string => Buffer.concat(chunks).toString("utf8");
    const timer = setTimeout(() => finish({ kind: "timeout", text: text() }), timeoutMs);
    const next = (): void => {
      if (settled) return;
      const buf = Buffer.allocUnsafe(64 * 1024);
      readInFlight = true;
      read(fd, buf, 0, buf.length, null, (err, n) => {
        readInFlight = false;
        if (settled) return;
        if (err) {
          // A non-blocking descriptor with no data yet: poll again. Anything else ends input.
          if ((err as NodeJS.ErrnoException).code === "EAGAIN") return void setTimeout(next, 2);
          return finish({ kind: "ok", text: text() });
        }
        if (n === 0) return finish({ kind: "ok", text: text() });
        bytes += n;
        if (bytes > maxBytes) return finish({ kind: "too-large", bytes });
        chunks.push(buf.subarray(0, n));
        // Cursor sends one JSON object. Once it is complete there is no need to wait for the
        // end of input: one read (one worker round trip) fewer per hook.
        if (endsLikeObject(buf, n)) {
          const all = text();
          if (isCompleteJson(all)) return finish({ kind: "ok", text: all });
        }
        next();
      });
    };
    next();
  });
}

/** Last non-whitespace byte is `}`: the only way a chunk can end a JSON object. */
function endsLikeObject(buf: Buffer, n: number): boolean {
  for (let i = n - 1; i >= 0; i--) {
    const c = buf[i]!;
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
    return c === 0x7d;
  }
  return false;
}

function isCompleteJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
