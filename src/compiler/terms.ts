/**
 * Turning text into search terms, shared by the intent analyser (query side) and the indexer
 * (document side) so both split identifiers the same way: `getUserName`, `get_user_name` and
 * `GetUserName` all yield `get`, `user`, `name`, plus the joined form `getusername` so an exact
 * identifier match still outranks a match on its parts.
 */

const IDENTIFIER = /[A-Za-z_$][A-Za-z0-9_$]*/g;

/** Words too common in code or prose to say anything about which file is relevant. */
const STOPWORDS = new Set(
  (
    "a an and are as at be been but by can could did do does doing done for from had has have he her " +
    "here him his how i if in into is it its just me more most my no nor not of off on once only or " +
    "other our out over own same she so some such than that the their them then there these they " +
    "this those through to too under until up very was we were what when where which while who whom " +
    "why will with would you your also any all each few both about above after again against below " +
    "between before during further get got gets use used using via etc eg ie let lets may might must " +
    "shall should yes one two new like want need now well way e g s t"
  ).split(" "),
);

/** Language keywords: present in nearly every file of their language, so they carry no signal. */
const CODE_STOPWORDS = new Set(
  (
    "def class self return none true false import from pass elif else try except finally raise " +
    "lambda yield with assert del global nonlocal async await const var function new this typeof " +
    "instanceof void null undefined export default extends implements interface type enum public " +
    "private protected static readonly any unknown never args kwargs cls"
  ).split(" "),
);

export function isStopword(term: string): boolean {
  return STOPWORDS.has(term) || CODE_STOPWORDS.has(term);
}

/**
 * Split one identifier into lower-case parts at `_`, `$`, digits boundaries and camelCase humps
 * (`HTTPServerError` -> http, server, error).
 */
export function splitIdentifier(identifier: string): string[] {
  const spaced = identifier
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/[_$]+/g, " ");
  return spaced
    .toLowerCase()
    .split(/\s+/)
    .filter((p) => p.length > 0);
}

/** Suffix rules of a light Porter-style stemmer, longest first: [suffix, replacement]. */
const SUFFIXES: [string, string][] = [
  ["izations", "ize"],
  ["ization", "ize"],
  ["isation", "ize"],
  ["ational", "ate"],
  ["ations", "ate"],
  ["ation", "ate"],
  ["izing", "ize"],
  ["izers", "ize"],
  ["izer", "ize"],
  ["ized", "ize"],
  ["izes", "ize"],
  ["ies", "y"],
  ["ing", ""],
  ["ers", ""],
  ["er", ""],
  ["ed", ""],
  ["es", ""],
  ["s", ""],
];

/**
 * Folds word forms so "serialization", "serialized" and "serializer" meet, as do "parse",
 * "parser" and "parsing". Applied identically to intent and documents, so collisions are harmless.
 */
export function normalizeTerm(term: string): string {
  if (term.length <= 4) return term;
  let w = term;
  for (const [suffix, repl] of SUFFIXES) {
    if (!w.endsWith(suffix)) continue;
    const stem = w.slice(0, -suffix.length);
    if (stem.length < 4) continue;
    if (suffix === "s" && /(ss|us|is)$/.test(w)) break;
    w = stem + repl;
    break;
  }
  if (w.length > 4 && w.endsWith("e")) w = w.slice(0, -1);
  if (w.length > 4 && /([^aeiouslz])\1$/.test(w)) w = w.slice(0, -1);
  return w;
}

export const MAX_IDENTIFIER = 100;

/** Terms of one identifier: its parts, plus the joined identifier when it has several parts. */
export function identifierTerms(identifier: string): string[] {
  // Longer "words" are data (base64, hashes, minified code), and splitting them is quadratic.
  if (identifier.length > MAX_IDENTIFIER) return [];
  const parts = splitIdentifier(identifier);
  const out: string[] = [];
  for (const p of parts) {
    if (p.length < 2 || /^\d+$/.test(p) || isStopword(p)) continue;
    out.push(normalizeTerm(p));
  }
  if (parts.length > 1) {
    const joined = parts.join("");
    if (joined.length > 2 && !isStopword(joined)) out.push(joined);
  }
  return out;
}

const IDENT_START = new Uint8Array(128);
const IDENT_PART = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  IDENT_START[c] = /[A-Za-z_$]/.test(ch) ? 1 : 0;
  IDENT_PART[c] = /[A-Za-z0-9_$]/.test(ch) ? 1 : 0;
}

/**
 * Calls `visit` for each identifier-like word of the text (same words as /[A-Za-z_$][\w$]*\/).
 * A hand-written scanner: indexing a large project spends most of its time here.
 */
export function forEachIdentifier(text: string, visit: (word: string) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c < 128 && IDENT_START[c] === 1) {
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d >= 128 || IDENT_PART[d] === 0) break;
        j++;
      }
      visit(text.slice(i, j));
      i = j;
    } else i++;
  }
}

/** Identifier -> terms, shared by every call: code repeats the same names everywhere. */
const termCache = new Map<string, string[]>();

/** identifierTerms, memoised (bounded, so a long-lived daemon does not grow without limit). */
export function cachedIdentifierTerms(identifier: string): string[] {
  let terms = termCache.get(identifier);
  if (!terms) {
    terms = identifierTerms(identifier);
    if (termCache.size > 200_000) termCache.clear();
    termCache.set(identifier, terms);
  }
  return terms;
}

/** Term frequencies of free text or code. */
export function termFrequencies(text: string, into: Map<string, number> = new Map()) {
  forEachIdentifier(text, (id) => {
    for (const t of cachedIdentifierTerms(id)) into.set(t, (into.get(t) ?? 0) + 1);
  });
  return into;
}

/** Terms of a project-relative path (`src/auth/LoginForm.tsx` -> src, auth, login, form, ...). */
export function pathTerms(path: string): string[] {
  const out: string[] = [];
  for (const segment of path.split("/")) {
    const stem = segment.replace(/\.[^.]+$/, "");
    for (const m of stem.matchAll(IDENTIFIER)) out.push(...identifierTerms(m[0]));
  }
  return out;
}
