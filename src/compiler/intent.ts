/**
 * Intent analysis: what is the request about? Extracts subject terms (never the task verbs),
 * identifiers split into their parts, file paths and module names, code in backticks, stack-trace
 * frames and quoted error messages. The task class is a hint for priors only; it never selects
 * files by itself (a "fix" and an "add" on the same subject get the same files).
 */
import type { TaskClass } from "./types.js";
import {
  identifierTerms,
  isStopword,
  MAX_IDENTIFIER,
  normalizeTerm,
  splitIdentifier,
} from "./terms.js";

export interface StackFrame {
  path: string;
  line?: number;
  symbol?: string;
}

export interface Intent {
  text: string;
  /** Query terms with weights (identifiers and code count more than prose). */
  terms: Map<string, number>;
  /** Terms of the summary line (the first line; the whole text when it is one line). */
  summaryTerms: Set<string>;
  /** Code-like names mentioned (`Session.request`, `get_user`, `HTTPError`), as written. */
  identifiers: string[];
  /** File paths or module names mentioned (`src/x.ts`, `requests/models.py`, `requests.models`). */
  paths: string[];
  frames: StackFrame[];
  quoted: string[];
  taskClass: TaskClass;
}

/** Verbs and fillers that say what to do, not what it is about. */
const TASK_WORDS = new Set(
  (
    "fix fixes fixed fixing add adds added adding implement implements implemented implementing " +
    "create creates make makes change changes changed update updates updated refactor refactoring " +
    "remove removes removed rename renames improve improves support supports please help write " +
    "writes try trying tried bug bugs issue issues problem problems feature task work works working " +
    "expected actual behavior behaviour instead happen happens happening seem seems think thanks " +
    "code file files look looks example reproduce reproduction version versions"
  ).split(" "),
);

const CODE_EXT =
  "py|pyi|pyx|ts|tsx|js|jsx|mjs|cjs|mts|cts|json|md|rst|txt|toml|cfg|ini|yaml|yml|go|rs|java|rb|c|h|cc|cpp|hpp|cs|php|swift|kt|scala|sh|vue|svelte|css|scss|html";
// Every quantifier is bounded and paths start only where a path-like run starts: issue texts
// carry long blobs (base64, minified lines) that would make open-ended patterns quadratic.
const SEGMENT = "[A-Za-z0-9_.@-]{1,120}";
// A path starts after a non-path character or a "/" (URLs, absolute paths), never mid-name.
const PATH_START = "(?<![A-Za-z0-9_.@-])/?";
const PATH_RE = new RegExp(
  `${PATH_START}(?:${SEGMENT}/){0,40}${SEGMENT}\\.(?:${CODE_EXT})\\b`,
  "g",
);
const PY_FRAME_RE = /File "([^"\n]{1,500})", line (\d{1,9})(?:, in ([A-Za-z_<>][\w<>.]{0,200}))?/g;
const JS_FRAME_RE =
  /at (?:([\w$.<>]{1,200}) )?\(?((?:[A-Za-z]:)?[^\s():]{1,500}\.[A-Za-z]{1,10}):(\d{1,9})(?::\d+)?\)?/g;
const FILE_LINE_RE = new RegExp(
  `${PATH_START}((?:${SEGMENT}/){0,40}${SEGMENT}\\.(?:${CODE_EXT})):(\\d{1,9})`,
  "g",
);
const BACKTICK_RE = /```[\w-]*\n([\s\S]*?)```|`([^`\n]+)`/g;
const QUOTED_RE = /"([^"\n]{8,200})"|'([^'\n]{8,200})'/g;
const DOTTED_RE = /\b[A-Za-z_][A-Za-z0-9_]{0,100}(?:\.[A-Za-z_][A-Za-z0-9_]{0,100}){1,20}\b/g;
const WORD_RE = /[A-Za-z_$][A-Za-z0-9_$]*/g;

/** Word cues for the task class; first match wins in this order. */
const TASK_CLASS_CUES: [TaskClass, RegExp][] = [
  // Only a request to work on tests: bug reports mention tests all the time.
  [
    "test",
    /\b(write|add|update|extend|improve|missing|more|new)\s+(a\s+|the\s+|some\s+)?(unit\s+|integration\s+|e2e\s+)?(tests?|specs?|test cases?)\b|\btest coverage\b|\bunit tests? for\b/i,
  ],
  [
    "bugfix",
    /\b(fix|bug|crash|error|exception|traceback|fails?|failing|broken|regression|wrong|incorrect)\b/i,
  ],
  ["refactor", /\b(refactor|rename|clean ?up|extract|simplify|restructure|move)\b/i],
  ["docs", /\b(docs?|documentation|readme|docstring|changelog|comment)\b/i],
  ["feature", /\b(add|implement|support|feature|new|introduce|allow|enable)\b/i],
];

export function classifyTask(text: string): TaskClass {
  // Work on tests must be what the request leads with: long reports and PR templates mention
  // "add new tests" in passing.
  const summary = text.trim().split("\n", 1)[0] ?? "";
  for (const [cls, re] of TASK_CLASS_CUES) if (re.test(cls === "test" ? summary : text)) return cls;
  return "general";
}

/** Is this word written like code (snake_case, camelCase, dotted, dunder)? */
function looksLikeIdentifier(word: string): boolean {
  return (
    /_/.test(word) ||
    /[a-z][A-Z]/.test(word) ||
    /^[A-Z][a-z]+[A-Z]/.test(word) ||
    /^[A-Z]{2,}[a-z]/.test(word)
  );
}

export interface AnalyzeOptions {
  /** Extra text (tool outputs) analysed with a lower weight: frames and identifiers still count. */
  extraText?: string[];
}

export function analyzeIntent(text: string, options: AnalyzeOptions = {}): Intent {
  const terms = new Map<string, number>();
  const identifiers = new Set<string>();
  const paths = new Set<string>();
  const frames: StackFrame[] = [];
  const quoted: string[] = [];

  const addTerms = (words: string[], weight: number) => {
    for (const w of words) terms.set(w, (terms.get(w) ?? 0) + weight);
  };

  const absorb = (source: string, scale: number) => {
    for (const m of source.matchAll(PY_FRAME_RE)) {
      frames.push({ path: m[1]!, line: Number(m[2]), symbol: m[3] });
    }
    for (const m of source.matchAll(JS_FRAME_RE)) {
      if (/^(https?|node):/.test(m[2]!)) continue;
      frames.push({ path: m[2]!, line: Number(m[3]), symbol: m[1] });
    }
    for (const m of source.matchAll(FILE_LINE_RE)) frames.push({ path: m[1]!, line: Number(m[2]) });
    for (const m of source.matchAll(PATH_RE)) {
      // "e.g" or version numbers are not paths; require a letter before the extension.
      if (/^\d/.test(m[0]) || m[0].length < 4) continue;
      paths.add(m[0].replace(/^\.\//, ""));
    }
    for (const m of source.matchAll(BACKTICK_RE)) {
      const code = m[1] ?? m[2] ?? "";
      for (const w of code.matchAll(WORD_RE)) {
        if (w[0].length > MAX_IDENTIFIER) continue; // a blob, not a name
        if (w[0].length > 2) identifiers.add(w[0]);
        addTerms(identifierTerms(w[0]), 1.0 * scale);
      }
    }
    for (const m of source.matchAll(QUOTED_RE)) quoted.push(m[1] ?? m[2] ?? "");
    for (const m of source.matchAll(DOTTED_RE)) {
      const dotted = m[0];
      // Dotted names: module paths (requests.models) or qualified symbols (Session.request).
      if (/^\d/.test(dotted) || /\.(com|org|net|io|html?)$/i.test(dotted)) continue;
      if (dotted.split(".").every((p) => /^[a-z]$/.test(p))) continue; // "e.g", "i.e"
      identifiers.add(dotted);
    }
    for (const w of source.matchAll(WORD_RE)) {
      const word = w[0];
      if (word.length > MAX_IDENTIFIER) continue; // a blob, not a word
      const lower = word.toLowerCase();
      if (TASK_WORDS.has(lower) || isStopword(lower)) continue;
      if (looksLikeIdentifier(word)) {
        identifiers.add(word);
        addTerms(identifierTerms(word), 1.5 * scale);
      } else {
        const parts = splitIdentifier(word);
        const filtered = parts.filter(
          (p) => p.length > 1 && !TASK_WORDS.has(p) && !isStopword(p) && !/^\d+$/.test(p),
        );
        addTerms(filtered.map(normalizeTerm), 1.0 * scale);
      }
    }
  };

  // The first line of a report is usually its summary: its words count double.
  const newline = text.indexOf("\n");
  if (newline > 0) absorb(text.slice(0, newline), 1);
  const summaryTerms = new Set(terms.keys());
  absorb(text, 1);
  if (newline <= 0) for (const t of terms.keys()) summaryTerms.add(t);
  for (const extra of options.extraText ?? []) absorb(extra, 0.5);

  for (const f of frames) {
    if (f.symbol && !f.symbol.startsWith("<")) identifiers.add(f.symbol);
    paths.add(f.path);
  }

  // Dampen repetition: a word said ten times is not ten times as important.
  for (const [t, w] of terms) terms.set(t, 1 + Math.log(w));

  return {
    text,
    terms,
    summaryTerms,
    identifiers: [...identifiers].sort(),
    paths: [...paths].sort(),
    frames,
    quoted,
    taskClass: classifyTask(text),
  };
}
