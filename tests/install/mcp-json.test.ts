import { parse } from "jsonc-parser";
import { describe, expect, it } from "vitest";
import { aicMcpEntry, editMcpJson, parseMcpJson } from "../../src/install/mcp-json.js";

const entry = aicMcpEntry("/opt/aic/dist/cli.js");

describe("mcp.json registration edits", () => {
  const layouts: Record<string, string> = {
    tabs: '{\n\t"mcpServers": {\n\t\t"other": { "command": "x" }\n\t}\n}\n',
    "four spaces, comments, CRLF":
      '// servers\r\n{\r\n    "mcpServers": {\r\n        "other": {"command": "x"} // keep\r\n    },\r\n    "x": 1\r\n}\r\n',
    "trailing comma": '{\n  "mcpServers": {\n    "other": { "command": "x" },\n  },\n}\n',
    inline: '{ "mcpServers": { "other": { "command": "x" } } }',
    // (inline: the one line necessarily changes; the exact-removal check below still applies)
  };
  for (const [name, text] of Object.entries(layouts)) {
    it(`adds aic beside the other servers without touching their bytes (${name}), and removes it exactly`, () => {
      const added = editMcpJson(text, entry);
      const parsed = parseMcpJson(added, "mcp.json");
      if (typeof parsed === "string") throw new Error(parsed);
      expect(parsed.entry).toEqual(entry);
      expect(parse(added, [], { allowTrailingComma: true }).mcpServers.other).toEqual({
        command: "x",
      });
      // Every original line survives (the new member is spliced in, nothing is reformatted).
      const before = text.includes("\n")
        ? text.split(/\r?\n/).filter((l) => !/^\s*[}\]],?\s*$/.test(l))
        : [];
      for (const line of before)
        expect(added).toContain(line.replace(/,$/, "").replace(/ \/\/ keep$/, ""));
      expect(editMcpJson(added, undefined)).toBe(text);
    });
  }

  it("creates mcpServers when missing and fills an empty one", () => {
    expect(parse(editMcpJson('{\n  "x": 1\n}\n', entry))).toEqual({
      x: 1,
      mcpServers: { aic: entry },
    });
    expect(editMcpJson('{\n  "mcpServers": {}\n}\n', entry)).toBe(
      '{\n  "mcpServers": {\n    "aic": {\n      "command": "node",\n      "args": [\n        "/opt/aic/dist/cli.js",\n        "serve"\n      ]\n    }\n  }\n}\n',
    );
    expect(JSON.parse(editMcpJson("", entry))).toEqual({ mcpServers: { aic: entry } });
  });

  it("refuses what it cannot edit safely, without echoing the content", () => {
    expect(parseMcpJson("{ nope", "mcp.json")).toMatch(/cannot be parsed .* line 1/);
    expect(parseMcpJson('{"mcpServers": {"a": {}, "\\u0061": {}}}', "mcp.json")).toMatch(
      /"mcpServers\.a" twice/,
    );
    expect(parseMcpJson("[]", "mcp.json")).toMatch(/JSON object at the top level/);
    expect(parseMcpJson('{"mcpServers": []}', "mcp.json")).toMatch(/must be an object/);
  });
});
