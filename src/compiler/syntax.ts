/**
 * Tree-sitter: defined symbols with exact line ranges for Python, TypeScript, JavaScript and TSX.
 * Loaded lazily (wasm start-up costs ~20 ms per grammar) and only for files whose symbols are not
 * already in the index cache, so a warm compile never touches it.
 */
import { createRequire } from "node:module";
import type { Language as TSLanguage, Node as TSNode, Parser as TSParser } from "web-tree-sitter";

export type Lang = "python" | "typescript" | "tsx" | "javascript";

export interface CodeSymbol {
  /** Qualified name: `Session.request`, `parse`, `Config`. */
  name: string;
  kind: "function" | "class" | "method" | "interface" | "type" | "enum" | "variable";
  /** 1-based inclusive range, decorators and `export` included. */
  startLine: number;
  endLine: number;
  /** Last line of the signature (the line before the body starts). */
  headerEndLine: number;
  /** Qualified name of the enclosing class, for methods. */
  parent?: string;
}

const GRAMMAR_FILES: Record<Lang, string> = {
  python: "tree-sitter-python.wasm",
  typescript: "tree-sitter-typescript.wasm",
  tsx: "tree-sitter-tsx.wasm",
  javascript: "tree-sitter-javascript.wasm",
};

export function syntaxLanguage(path: string): Lang | undefined {
  const ext = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
  if (ext === "py" || ext === "pyi") return "python";
  if (ext === "ts" || ext === "mts" || ext === "cts") return "typescript";
  if (ext === "tsx") return "tsx";
  if (ext === "js" || ext === "jsx" || ext === "mjs" || ext === "cjs") return "javascript";
  return undefined;
}

let parserModule: Promise<typeof import("web-tree-sitter")> | undefined;
const parsers = new Map<Lang, Promise<TSParser>>();

async function parserFor(lang: Lang): Promise<TSParser> {
  let p = parsers.get(lang);
  if (!p) {
    p = (async () => {
      parserModule ??= import("web-tree-sitter").then(async (m) => {
        await m.Parser.init();
        return m;
      });
      const { Parser, Language } = await parserModule;
      const require = createRequire(import.meta.url);
      const language: TSLanguage = await Language.load(
        require.resolve(`@repomix/tree-sitter-wasms/out/${GRAMMAR_FILES[lang]}`),
      );
      const parser = new Parser();
      parser.setLanguage(language);
      return parser;
    })();
    parsers.set(lang, p);
  }
  return p;
}

const line = (n: TSNode) => n.startPosition.row + 1;
const endLine = (n: TSNode) =>
  n.endPosition.column === 0 ? n.endPosition.row : n.endPosition.row + 1;

function headerEnd(def: TSNode, body: TSNode | null, start: number): number {
  if (!body) return endLine(def);
  return Math.max(start, line(body) - (body.startPosition.row > def.startPosition.row ? 1 : 0));
}

function pythonSymbols(root: TSNode): CodeSymbol[] {
  const out: CodeSymbol[] = [];
  const visit = (container: TSNode, parent: string | undefined) => {
    for (const child of container.namedChildren) {
      if (!child) continue;
      let def: TSNode = child;
      if (child.type === "decorated_definition")
        def = child.childForFieldName("definition") ?? child;
      if (def.type === "function_definition" || def.type === "class_definition") {
        const nameNode = def.childForFieldName("name");
        if (!nameNode) continue;
        const name = parent ? `${parent}.${nameNode.text}` : nameNode.text;
        const body = def.childForFieldName("body");
        const isClass = def.type === "class_definition";
        out.push({
          name,
          kind: isClass ? "class" : parent ? "method" : "function",
          startLine: line(child),
          endLine: endLine(child),
          headerEndLine: headerEnd(def, body, line(child)),
          parent,
        });
        if (isClass && body) visit(body, name);
      } else if (!parent && (child.type === "if_statement" || child.type === "try_statement")) {
        // Module-level `if TYPE_CHECKING:` / `try: ... except ImportError:` blocks define symbols too.
        for (const block of child.namedChildren) {
          if (!block) continue;
          if (block.type === "block") visit(block, parent);
          else
            for (const inner of block.namedChildren)
              if (inner?.type === "block") visit(inner, parent);
        }
      }
    }
  };
  visit(root, undefined);
  return out;
}

const TS_DECLARATIONS: Record<string, CodeSymbol["kind"]> = {
  function_declaration: "function",
  generator_function_declaration: "function",
  class_declaration: "class",
  abstract_class_declaration: "class",
  interface_declaration: "interface",
  type_alias_declaration: "type",
  enum_declaration: "enum",
};

function tsSymbols(root: TSNode): CodeSymbol[] {
  const out: CodeSymbol[] = [];
  const visitClassBody = (body: TSNode, className: string) => {
    for (const member of body.namedChildren) {
      if (!member) continue;
      if (member.type === "method_definition" || member.type === "abstract_method_signature") {
        const nameNode = member.childForFieldName("name");
        if (!nameNode) continue;
        const start = line(member);
        out.push({
          name: `${className}.${nameNode.text}`,
          kind: "method",
          startLine: start,
          endLine: endLine(member),
          headerEndLine: headerEnd(member, member.childForFieldName("body"), start),
          parent: className,
        });
      }
    }
  };
  for (const top of root.namedChildren) {
    if (!top) continue;
    // `export ...` and `export default ...` wrap the declaration; the range keeps the keyword.
    const decl =
      top.type === "export_statement" ? (top.childForFieldName("declaration") ?? top) : top;
    const start = line(top);
    const kind = TS_DECLARATIONS[decl.type];
    if (kind) {
      const nameNode = decl.childForFieldName("name");
      if (!nameNode) continue;
      const body = decl.childForFieldName("body");
      out.push({
        name: nameNode.text,
        kind,
        startLine: start,
        endLine: endLine(top),
        headerEndLine:
          kind === "type" || kind === "enum" || kind === "interface"
            ? endLine(top)
            : headerEnd(decl, body, start),
      });
      if (kind === "class" && body) visitClassBody(body, nameNode.text);
    } else if (decl.type === "lexical_declaration" || decl.type === "variable_declaration") {
      for (const d of decl.namedChildren) {
        if (d?.type !== "variable_declarator") continue;
        const nameNode = d.childForFieldName("name");
        const value = d.childForFieldName("value");
        if (!nameNode || nameNode.type !== "identifier") continue;
        const fn = value && /function|arrow_function/.test(value.type);
        out.push({
          name: nameNode.text,
          kind: fn ? "function" : "variable",
          startLine: start,
          endLine: endLine(top),
          headerEndLine:
            fn && value ? headerEnd(value, value.childForFieldName("body"), start) : endLine(top),
        });
      }
    }
  }
  return out;
}

/** Defined symbols of one file, outermost first, in source order. */
export async function extractSymbols(lang: Lang, source: string): Promise<CodeSymbol[]> {
  const parser = await parserFor(lang);
  const tree = parser.parse(source);
  if (!tree) return [];
  try {
    return lang === "python" ? pythonSymbols(tree.rootNode) : tsSymbols(tree.rootNode);
  } finally {
    tree.delete();
  }
}
