import { describe, expect, it } from "vitest";
import { extractSymbols, syntaxLanguage } from "../../src/compiler/syntax.js";

describe("tree-sitter symbols", () => {
  it("finds Python functions, classes and methods with decorators in their range", async () => {
    const src = [
      "import os", // 1
      "", // 2
      "@cache", // 3
      "def load(path):", // 4
      "    return open(path)", // 5
      "", // 6
      "class Store(Base):", // 7
      '    """Docs."""', // 8
      "    @property", // 9
      "    def size(self):", // 10
      "        return 1", // 11
      "", // 12
      "try:", // 13
      "    def fast():", // 14
      "        pass", // 15
      "except ImportError:", // 16
      "    pass", // 17
    ].join("\n");
    const symbols = await extractSymbols("python", src);
    expect(symbols).toEqual([
      {
        name: "load",
        kind: "function",
        startLine: 3,
        endLine: 5,
        headerEndLine: 4,
        parent: undefined,
      },
      {
        name: "Store",
        kind: "class",
        startLine: 7,
        endLine: 11,
        headerEndLine: 7,
        parent: undefined,
      },
      {
        name: "Store.size",
        kind: "method",
        startLine: 9,
        endLine: 11,
        headerEndLine: 10,
        parent: "Store",
      },
      {
        name: "fast",
        kind: "function",
        startLine: 14,
        endLine: 15,
        headerEndLine: 14,
        parent: undefined,
      },
    ]);
  });

  it("finds TypeScript declarations, exported or not, and class methods", async () => {
    const src = [
      "export interface Invoice {", // 1
      "  total: number;", // 2
      "}", // 3
      "export type Cur = 'EUR' | 'USD';", // 4
      "export class Renderer {", // 5
      "  render(i: Invoice): string {", // 6
      "    return `${i.total}`;", // 7
      "  }", // 8
      "}", // 9
      "const helper = (x: number) => {", // 10
      "  return x;", // 11
      "};", // 12
      "function plain() {}", // 13
    ].join("\n");
    const symbols = await extractSymbols("typescript", src);
    expect(symbols.map((s) => [s.name, s.kind, s.startLine, s.endLine])).toEqual([
      ["Invoice", "interface", 1, 3],
      ["Cur", "type", 4, 4],
      ["Renderer", "class", 5, 9],
      ["Renderer.render", "method", 6, 8],
      ["helper", "function", 10, 12],
      ["plain", "function", 13, 13],
    ]);
    const tsx = await extractSymbols(
      "tsx",
      "export function App() {\n  return <div>hi</div>;\n}\n",
    );
    expect(tsx.map((s) => s.name)).toEqual(["App"]);
  });

  it("maps file extensions to grammars", () => {
    expect(syntaxLanguage("a/b.py")).toBe("python");
    expect(syntaxLanguage("x.tsx")).toBe("tsx");
    expect(syntaxLanguage("x.mjs")).toBe("javascript");
    expect(syntaxLanguage("README.md")).toBeUndefined();
  });
});
