/**
 * Bounded stdin for hooks. Cursor writes one JSON document and closes the pipe; a writer that
 * sends too much or never closes must not make a hook hang or run out of memory.
 */

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
  stream?: NodeJS.ReadableStream;
}

export function readBoundedStdin(opts: StdinOptions = {}): Promise<StdinResult> {
  const maxBytes = opts.maxBytes ?? STDIN_MAX_BYTES;
  const timeoutMs = opts.timeoutMs ?? STDIN_TIMEOUT_MS;
  const stream = opts.stream ?? process.stdin;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    let settled = false;
    const finish = (result: StdinResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stream.removeListener("data", onData);
      stream.removeListener("end", onEnd);
      stream.removeListener("error", onEnd);
      // Stop reading so a huge or endless writer cannot keep us alive.
      stream.pause();
      resolve(result);
    };
    const text = (): string => Buffer.concat(chunks).toString("utf8");
    const onData = (chunk: Buffer | string): void => {
      const buf = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      bytes += buf.length;
      if (bytes > maxBytes) return finish({ kind: "too-large", bytes });
      chunks.push(buf);
    };
    const onEnd = (): void => finish({ kind: "ok", text: text() });
    const timer = setTimeout(() => finish({ kind: "timeout", text: text() }), timeoutMs);
    timer.unref?.();
    stream.on("data", onData);
    stream.on("end", onEnd);
    stream.on("error", onEnd);
  });
}
