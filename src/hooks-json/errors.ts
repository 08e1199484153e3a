/**
 * Typed errors of the hooks.json library. Every message is fixed text (plus line/column numbers or
 * argv indexes): nothing read from the user's file or from argv is ever echoed, so a hostile or
 * private hooks.json cannot leak into logs or inject terminal escapes through our messages.
 */

export type HooksJsonErrorKind =
  /** The bytes are not JSON/JSONC we can read (syntax, UTF-8, duplicate keys). */
  | "parse"
  /** The document exceeds a resource limit (size, depth, node count). */
  | "limit"
  /** Ownership cannot be proven or would be violated; nothing may be written. */
  | "conflict"
  /** A conflict where an owned entry is missing and the rest changed (a subclass of conflict). */
  | "absence-unproven"
  /** Valid JSON but a shape, encoding or argv this library refuses to represent. */
  | "unsupported"
  /** The caller asked for something invalid (unknown event, malformed receipt, duplicates). */
  | "invalid-request";

const MESSAGES = {
  // parse
  "invalid-utf8": "hooks.json is not valid UTF-8. Re-save it as UTF-8 and retry.",
  syntax: "hooks.json is not valid JSON. Fix the syntax error and retry.",
  "comment-not-allowed": "hooks.json has a comment, which strict JSON does not allow.",
  "trailing-comma-not-allowed":
    "hooks.json has a trailing comma, which strict JSON does not allow.",
  "duplicate-key":
    "hooks.json has the same object key twice (possibly spelled with different escapes). Remove one and retry.",
  // limit
  "too-large": "hooks.json is larger than 4 MiB; it is left untouched.",
  "too-deep": "hooks.json nests deeper than 64 levels; it is left untouched.",
  "too-many-nodes": "hooks.json has more than 65,536 JSON values; it is left untouched.",
  // unsupported
  bom: "hooks.json starts with a UTF-8 byte order mark. Remove the BOM and retry.",
  "root-not-object": "hooks.json must contain a JSON object at the top level.",
  "hooks-not-object": 'The "hooks" value in hooks.json must be an object.',
  "event-not-array": "Every event in hooks.json must map to an array of entries.",
  "version-not-1": 'hooks.json has a "version" other than 1, which AIC does not know how to edit.',
  "argv-empty": "A hook command needs at least an executable.",
  "argv-too-many": "A hook command may have at most 32 arguments.",
  "argv-too-large": "A hook command may be at most 16,384 bytes.",
  "token-too-large": "A hook command argument may be at most 4,096 bytes.",
  "token-empty": "An empty argument cannot be passed reliably in this shell grammar.",
  "token-nul": "A hook command argument contains a NUL character.",
  "token-newline": "A hook command argument contains a line break.",
  "token-dollar": 'A hook command argument contains "$", which Cursor may expand.',
  "token-backtick": "A hook command argument contains a backtick, which shells may expand.",
  "token-double-quote": "A PowerShell hook argument cannot contain a double quote reliably.",
  "token-invalid-utf8": "A hook command argument is not valid Unicode (lone surrogate).",
  "path-not-canonical":
    "A user-scope hook command path must be absolute and canonical (no ., .., // or trailing slash).",
  "unknown-grammar": "Unknown shell grammar; use posix or powershell.",
  // invalid-request
  "unknown-event": "The requested hook event is not a known Cursor hook event.",
  "duplicate-desired-command": "Two requested AIC entries render to the same command.",
  "invalid-field": 'An entry field must be a string, finite number or boolean, and not "command".',
  "invalid-receipt": "The AIC ownership receipt is malformed.",
  // conflict
  "foreign-command-collision":
    "hooks.json already has an entry AIC does not own that runs the same command. Remove or change that entry, then retry.",
  "owned-entry-missing":
    "An entry AIC installed is no longer in hooks.json. Installing again puts it back when nothing else in the file changed.",
  "owned-entry-edited":
    "An entry AIC installed was edited or moved in hooks.json. Restore it or remove it by hand, then retry.",
  "owned-entry-duplicated": "An entry AIC installed appears more than once in hooks.json.",
  "receipt-spec-mismatch": "The receipt's entry digest does not match its recorded specification.",
  "remainder-drift":
    "hooks.json changed outside AIC's entries since the receipt was written, so repair refuses to edit it.",
  "absence-unproven":
    "An AIC entry is missing and other parts of hooks.json changed since it was installed, so AIC cannot prove the entry was not deliberately edited away. Restore it by hand or reinstall.",
} as const;

export type HooksJsonErrorCode = keyof typeof MESSAGES;

export interface ErrorDetail {
  /** 1-based position in the document, when the error points at one. */
  line?: number;
  column?: number;
  /** Index of the offending argv token, for command rendering errors. */
  argvIndex?: number;
}

export class HooksJsonError extends Error {
  readonly kind: HooksJsonErrorKind;
  readonly code: HooksJsonErrorCode;
  readonly line?: number;
  readonly column?: number;
  readonly argvIndex?: number;

  constructor(kind: HooksJsonErrorKind, code: HooksJsonErrorCode, detail: ErrorDetail = {}) {
    super(withDetail(MESSAGES[code], detail));
    this.name = new.target.name;
    this.kind = kind;
    this.code = code;
    this.line = detail.line;
    this.column = detail.column;
    this.argvIndex = detail.argvIndex;
  }
}

function withDetail(message: string, detail: ErrorDetail): string {
  if (detail.line !== undefined) return `${message} (line ${detail.line}, column ${detail.column})`;
  if (detail.argvIndex !== undefined) return `${message} (argument ${detail.argvIndex})`;
  return message;
}

export class ParseError extends HooksJsonError {
  constructor(code: HooksJsonErrorCode, detail?: ErrorDetail) {
    super("parse", code, detail);
  }
}

export class LimitError extends HooksJsonError {
  constructor(code: "too-large" | "too-deep" | "too-many-nodes", detail?: ErrorDetail) {
    super("limit", code, detail);
  }
}

export class UnsupportedError extends HooksJsonError {
  constructor(code: HooksJsonErrorCode, detail?: ErrorDetail) {
    super("unsupported", code, detail);
  }
}

export class InvalidRequestError extends HooksJsonError {
  constructor(code: HooksJsonErrorCode, detail?: ErrorDetail) {
    super("invalid-request", code, detail);
  }
}

export class ConflictError extends HooksJsonError {
  constructor(
    code: HooksJsonErrorCode,
    detail?: ErrorDetail,
    kind: HooksJsonErrorKind = "conflict",
  ) {
    super(kind, code, detail);
  }
}

/** A conflict (instanceof ConflictError) with its own kind, so callers can test either. */
export class AbsenceUnprovenError extends ConflictError {
  constructor() {
    super("absence-unproven", {}, "absence-unproven");
  }
}

/** 1-based line and column (in UTF-16 units) of a text offset, for error positions. */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
