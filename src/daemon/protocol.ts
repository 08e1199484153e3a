/**
 * The daemon's wire protocol: newline-delimited JSON over a unix socket, one request per line,
 * one response per request (matched by `id`, so a client may pipeline).
 *
 *   request:  {"v":1,"id":"7","method":"compile","params":{...},"build":"0.1.0+1764..."}
 *   response: {"v":1,"id":"7","ok":true,"result":{...}}
 *             {"v":1,"id":"7","ok":false,"error":{"code":"bad_request","message":"..."}}
 *
 * `v` is the protocol version; `build` identifies the installed AIC package (see build-id.ts).
 * A daemon answers a request of another `v` or `build` with `version_mismatch`; the client then
 * sends `shutdown` (honoured whatever the version, so an old daemon can always be replaced) and
 * starts a daemon of its own version.
 *
 * Node built-ins only: this module is bundled into the Cursor hooks.
 */

export const PROTOCOL_VERSION = 1;

/** A request line larger than this is refused (and the connection closed): no unbounded buffers. */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

export interface DaemonRequest {
  v: number;
  id: string | number;
  method: string;
  params?: unknown;
  build?: string;
}

export type DaemonErrorCode =
  | "bad_json"
  | "bad_request"
  | "unknown_method"
  | "version_mismatch"
  | "too_large"
  | "handler_failed"
  | "shutting_down";

/** Who answered: lets a client say which daemon it talked to in an error message. */
export interface DaemonIdentity {
  protocol: number;
  build: string;
  pid: number;
}

export interface DaemonErrorBody {
  code: DaemonErrorCode;
  message: string;
  daemon?: DaemonIdentity;
}

export type DaemonResponse =
  | { v: number; id: string | number | null; ok: true; result: unknown }
  | { v: number; id: string | number | null; ok: false; error: DaemonErrorBody };

export function encodeMessage(message: DaemonRequest | DaemonResponse): string {
  return JSON.stringify(message) + "\n";
}

/**
 * Splits a byte stream into lines. Bytes are kept as Buffers until a newline arrives so a
 * multi-byte UTF-8 character split across two chunks is decoded whole.
 */
export class LineDecoder {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly maxLineBytes = MAX_LINE_BYTES) {}

  /** Returns the complete lines in this chunk; throws LineTooLongError past the limit. */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      const part = chunk.subarray(start, nl);
      this.checkSize(part.length);
      lines.push(Buffer.concat([...this.pending, part]).toString("utf8"));
      this.pending = [];
      this.pendingBytes = 0;
      start = nl + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.checkSize(rest.length);
      this.pending.push(rest);
      this.pendingBytes += rest.length;
    }
    return lines;
  }

  private checkSize(extra: number): void {
    if (this.pendingBytes + extra > this.maxLineBytes) {
      throw new LineTooLongError(this.maxLineBytes);
    }
  }
}

export class LineTooLongError extends Error {
  constructor(limit: number) {
    super(`message longer than ${limit} bytes`);
    this.name = "LineTooLongError";
  }
}
