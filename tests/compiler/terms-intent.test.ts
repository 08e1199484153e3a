import { describe, expect, it } from "vitest";
import {
  identifierTerms,
  normalizeTerm,
  splitIdentifier,
  termFrequencies,
} from "../../src/compiler/terms.js";
import { analyzeIntent, classifyTask } from "../../src/compiler/intent.js";

describe("terms", () => {
  it("splits identifiers in every case style", () => {
    expect(splitIdentifier("getUserName")).toEqual(["get", "user", "name"]);
    expect(splitIdentifier("get_user_name")).toEqual(["get", "user", "name"]);
    expect(splitIdentifier("HTTPServerError")).toEqual(["http", "server", "error"]);
    expect(splitIdentifier("__init__")).toEqual(["init"]);
  });

  it("keeps the joined identifier so exact names outrank their parts", () => {
    expect(identifierTerms("verifyPassword")).toEqual(["verify", "password", "verifypassword"]);
  });

  it("folds word forms on both sides", () => {
    const forms = ["serialization", "serialize", "serialized", "serializer"].map(normalizeTerm);
    expect(new Set(forms).size).toBe(1);
    expect(normalizeTerm("parsing")).toBe(normalizeTerm("parser"));
    expect(normalizeTerm("address")).toBe("address");
  });

  it("ignores blobs longer than any real name", () => {
    expect(identifierTerms("A".repeat(5000))).toEqual([]);
    expect([...termFrequencies(`TOKEN${"A".repeat(200_000)} parse_url`).keys()]).toEqual([
      normalizeTerm("parse"),
      "url",
      "parseurl",
    ]);
  });

  it("drops language keywords", () => {
    const tf = termFrequencies("def foo(self):\n    return None");
    expect([...tf.keys()]).toEqual(["foo"]);
  });
});

describe("intent", () => {
  it("keeps subject terms and drops task verbs", () => {
    const intent = analyzeIntent("Fix the 500 error when adding a unicode password");
    expect(intent.terms.has("fix")).toBe(false);
    expect(intent.terms.has("add")).toBe(false);
    expect(intent.terms.has(normalizeTerm("unicode"))).toBe(true);
    expect(intent.terms.has(normalizeTerm("password"))).toBe(true);
  });

  it("never treats a task verb inside a word as the verb ('add' in 'address')", () => {
    const intent = analyzeIntent("update the address lookup");
    expect(intent.terms.has("address")).toBe(true);
    expect(intent.terms.has("add")).toBe(false);
  });

  it("extracts identifiers, paths, backtick code and quoted errors", () => {
    const intent = analyzeIntent(
      'In `Session.request` the call to get_user_name in src/auth/login.ts fails with "cannot read property of undefined"',
    );
    expect(intent.identifiers).toContain("Session.request");
    expect(intent.identifiers).toContain("get_user_name");
    expect(intent.paths).toContain("src/auth/login.ts");
    expect(intent.quoted).toContain("cannot read property of undefined");
    expect(intent.terms.has("user")).toBe(true);
    expect(intent.terms.has("getusername")).toBe(true);
  });

  it("reads Python and JavaScript stack frames", () => {
    const intent = analyzeIntent(
      'Traceback:\n  File "/site/app/auth.py", line 12, in verify_password\nTypeError\n    at renderInvoice (src/lib/invoice.ts:4:2)\nalso utils.py:88',
    );
    expect(intent.frames).toEqual(
      expect.arrayContaining([
        { path: "/site/app/auth.py", line: 12, symbol: "verify_password" },
        { path: "src/lib/invoice.ts", line: 4, symbol: "renderInvoice" },
        { path: "utils.py", line: 88 },
      ]),
    );
    expect(intent.identifiers).toContain("verify_password");
  });

  it("finds paths and frames next to long blobs (base64, minified lines)", () => {
    const blob = "QUJD".repeat(20_000);
    const intent = analyzeIntent(
      `token ${blob}\nsee ./src/auth/login.ts and (pkg/mod.py:12) at /home/u/proj/lib/util.py:7, https://github.com/o/r/blob/main/src/pkg/scales.py#L3\n${"x".repeat(50_000)}`,
    );
    expect(intent.paths).toEqual(
      expect.arrayContaining([
        "src/auth/login.ts",
        "pkg/mod.py",
        "/github.com/o/r/blob/main/src/pkg/scales.py",
      ]),
    );
    expect(intent.frames).toEqual(
      expect.arrayContaining([
        { path: "pkg/mod.py", line: 12 },
        { path: "/home/u/proj/lib/util.py", line: 7 },
      ]),
    );
    expect(intent.identifiers.every((id) => id.length <= 100)).toBe(true);
  });

  it("classifies the task only as a hint", () => {
    expect(classifyTask("fix the crash in the parser")).toBe("bugfix");
    expect(classifyTask("write unit tests for the parser")).toBe("test");
    expect(classifyTask("the test for login fails with a traceback")).toBe("bugfix");
    expect(classifyTask("rename the parser module")).toBe("refactor");
    expect(classifyTask("update the README documentation")).toBe("docs");
    expect(classifyTask("implement dark mode")).toBe("feature");
    expect(classifyTask("parser")).toBe("general");
  });

  it("adds tool output text at a lower weight", () => {
    const plain = analyzeIntent("login");
    const withTool = analyzeIntent("login", {
      extraText: ['File "app/auth.py", line 3, in verify_password'],
    });
    expect(plain.frames).toEqual([]);
    expect(withTool.frames[0]?.path).toBe("app/auth.py");
  });
});
