/**
 * Registers AIC's MCP server in Cursor's `mcp.json` as `mcpServers.aic`, editing the file with
 * jsonc-parser's offset-precise edits so other servers, comments and formatting stay byte for
 * byte. A file that cannot be parsed, or has duplicate keys, is refused rather than guessed at.
 */
import {
  applyEdits,
  createScanner,
  findNodeAtLocation,
  getNodeValue,
  modify,
  parseTree,
  printParseErrorCode,
  type Node,
  type ParseError,
} from "jsonc-parser";
import { canonicalJson, parseJsonText } from "../hooks-json/index.js";
import { positionOf } from "../hooks-json/errors.js";
import { readBytes, sha256 } from "./files.js";
import { Plan } from "./plan.js";
import type { InstallState } from "./state.js";
import { recordKey, type InstallTargets } from "./targets.js";

export const MCP_SERVER_NAME = "aic";
const SERVER_PATH = ["mcpServers", MCP_SERVER_NAME];

export interface McpServerEntry {
  command: string;
  args: string[];
}

export function aicMcpEntry(cliPath: string): McpServerEntry {
  return { command: "node", args: [cliPath, "serve"] };
}

/**
 * A digest of a JSON value that ignores key order and whitespace: the hooks-json library's
 * canonical form, so AIC has one definition of "the same JSON".
 */
export function canonicalDigest(value: unknown): string {
  return sha256(canonicalJson(parseJsonText(JSON.stringify(value), "strict").root));
}

export interface ParsedMcpJson {
  text: string;
  root: Node | undefined;
  /** The current `mcpServers.aic` value, if any. */
  entry: unknown;
}

/** Parse `mcp.json` text; returns a reason string when it must not be edited. */
export function parseMcpJson(text: string, displayPath: string): ParsedMcpJson | string {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, allowEmptyContent: true });
  if (errors.length > 0) {
    const first = errors[0]!;
    return (
      `${displayPath} cannot be parsed (${printParseErrorCode(first.error)} at ` +
      `${lineCol(text, first.offset)}): fix the file by hand, then run the command again`
    );
  }
  if (root === undefined) return { text, root, entry: undefined };
  if (root.type !== "object") {
    return `${displayPath} must contain a JSON object at the top level: fix it, then run again`;
  }
  const duplicate = findDuplicateKey(root, []);
  if (duplicate) {
    return (
      `${displayPath} has the key ${JSON.stringify(duplicate.join("."))} twice, so it is unclear ` +
      `which one Cursor uses: remove one of them, then run the command again`
    );
  }
  const servers = findNodeAtLocation(root, ["mcpServers"]);
  if (servers && servers.type !== "object") {
    return `${displayPath}: "mcpServers" must be an object: fix it, then run again`;
  }
  const node = findNodeAtLocation(root, SERVER_PATH);
  return { text, root, entry: node ? getNodeValue(node) : undefined };
}

function findDuplicateKey(node: Node, path: string[]): string[] | undefined {
  if (node.type === "object") {
    const seen = new Set<string>();
    for (const prop of node.children ?? []) {
      const key = prop.children?.[0]?.value as string;
      if (seen.has(key)) return [...path, key];
      seen.add(key);
      const value = prop.children?.[1];
      const inner = value && findDuplicateKey(value, [...path, key]);
      if (inner) return inner;
    }
  } else if (node.type === "array") {
    for (const [i, child] of (node.children ?? []).entries()) {
      const inner = findDuplicateKey(child, [...path, String(i)]);
      if (inner) return inner;
    }
  }
  return undefined;
}

function lineCol(text: string, offset: number): string {
  const { line, column } = positionOf(text, offset);
  return `line ${line}, column ${column}`;
}

/**
 * `text` with `mcpServers.aic` set to `entry`, or removed when `entry` is undefined. A new member
 * is spliced in after the last existing one, laid out like the file (indent unit, line ending,
 * inline objects stay inline); nothing else is reformatted. Replacing or removing uses
 * jsonc-parser's own edits, unformatted, so only AIC's member changes.
 */
export function editMcpJson(text: string, entry: McpServerEntry | undefined): string {
  if (entry !== undefined && text.trim() === "") {
    return JSON.stringify({ mcpServers: { [MCP_SERVER_NAME]: entry } }, null, 2) + "\n";
  }
  const root = parseTree(text, [], { allowTrailingComma: true })!;
  if (findNodeAtLocation(root, SERVER_PATH)) {
    // Remove first (an exact, unformatted edit); a new value is then added like a new member.
    const removed = applyEdits(text, modify(text, SERVER_PATH, undefined, {}));
    return entry === undefined ? removed : editMcpJson(removed, entry);
  }
  if (entry === undefined) return text;
  const servers = findNodeAtLocation(root, ["mcpServers"]);
  return servers
    ? insertMember(text, servers, MCP_SERVER_NAME, entry)
    : insertMember(text, root, "mcpServers", { [MCP_SERVER_NAME]: entry });
}

interface Layout {
  unit: string;
  eol: string;
}

function layoutOf(text: string): Layout {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const indents = [...text.matchAll(/\n([ \t]+)\S/g)].map((m) => m[1]!);
  const tab = indents.find((i) => i.startsWith("\t"));
  const spaces = indents.filter((i) => i.startsWith(" ")).map((i) => i.length);
  const unit = tab ? "\t" : " ".repeat(spaces.length > 0 ? Math.min(...spaces) : 2);
  return { unit, eol };
}

function lineIndentAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

function sameLine(text: string, a: number, b: number): boolean {
  return !text.slice(Math.min(a, b), Math.max(a, b)).includes("\n");
}

/** Add `"key": value` as the last member of `object`, matching the surrounding layout. */
function insertMember(text: string, object: Node, key: string, value: unknown): string {
  const { unit, eol } = layoutOf(text);
  const members = object.children ?? [];
  const closing = object.offset + object.length - 1;
  const objectIndent = lineIndentAt(text, object.offset);
  const render = (indent: string) =>
    JSON.stringify(value, null, unit)
      .split("\n")
      .join(eol + indent);
  if (members.length === 0) {
    const inner = objectIndent + unit;
    const body = `${eol}${inner}${JSON.stringify(key)}: ${render(inner)}${eol}${objectIndent}`;
    return text.slice(0, object.offset + 1) + body + text.slice(closing);
  }
  const last = members[members.length - 1]!;
  const lastEnd = last.offset + last.length;
  const inline = sameLine(text, object.offset, last.offset);
  const member = inline
    ? ` ${JSON.stringify(key)}: ${JSON.stringify(value)}`
    : `${eol}${lineIndentAt(text, last.offset)}${JSON.stringify(key)}: ${render(lineIndentAt(text, last.offset))}`;
  const trailingComma = commaOffset(text, lastEnd, closing);
  if (trailingComma === undefined)
    return text.slice(0, lastEnd) + "," + member + text.slice(lastEnd);
  // Keep the file's trailing-comma style: the new member goes after the comma and gets its own.
  return text.slice(0, trailingComma + 1) + member + "," + text.slice(trailingComma + 1);
}

// jsonc-parser's SyntaxKind is a const enum, which isolatedModules cannot read.
const COMMA_TOKEN = 5;
const EOF_TOKEN = 17;

/** The offset of a comma between two offsets, skipping comments; undefined when none. */
function commaOffset(text: string, from: number, to: number): number | undefined {
  const scanner = createScanner(text.slice(from, to), false);
  for (let token = scanner.scan(); token !== EOF_TOKEN; token = scanner.scan()) {
    if (token === COMMA_TOKEN) return from + scanner.getTokenOffset();
  }
  return undefined;
}

export function planMcpRegistration(
  plan: Plan,
  targets: InstallTargets,
  state: InstallState,
  desired: McpServerEntry,
  force: boolean,
): { entryDigest?: string } {
  const path = targets.mcpJson;
  const key = recordKey(targets.root, path);
  const before = readBytes(path);
  const parsed = parseMcpJson(before?.toString("utf8") ?? "", key);
  if (typeof parsed === "string") {
    plan.refusals.push(parsed);
    return {};
  }
  const desiredDigest = canonicalDigest(desired);
  const current = parsed.entry === undefined ? undefined : canonicalDigest(parsed.entry);
  const ownedNow =
    current !== undefined && (current === state.mcpEntry || current === state.pendingMcpEntry);
  if (current === desiredDigest) {
    if (!ownedNow) {
      // Registered by the user exactly as AIC would: leave it theirs (uninstall will not remove it).
      plan.notes.push(`${key} already registers the aic MCP server`);
      return {};
    }
    plan.own({ key, path, role: "mcp", before, after: before });
    return { entryDigest: desiredDigest };
  }
  const ours = current === undefined || ownedNow;
  if (!ours && !force) {
    plan.refusals.push(
      `${key} already has an MCP server named "aic" with a different configuration that AIC did ` +
        `not write: remove or rename it, or rerun with --force to replace it`,
    );
    return {};
  }
  const after = Buffer.from(editMcpJson(parsed.text, desired), "utf8");
  plan.own(
    { key, path, role: "mcp", before, after },
    `${current === undefined ? "registered" : "updated"} the aic MCP server in ${key}`,
  );
  return { entryDigest: desiredDigest };
}
