/**
 * Does a shell command run git in a way that skips git hooks? (seed §7.6, fixed.)
 *
 * The command is split into words with shell quoting rules, so a commit message that mentions
 * "--no-verify" is one quoted word (the value of -m), while a quoted flag still counts as the
 * flag. Blocked: `--no-verify` (and git's unambiguous abbreviations of it) on any git command,
 * `-n` where it means --no-verify (`git commit -n`, also inside `-anm`), and `-c core.hooksPath=…`.
 * Allowed: `git push -n` (dry run), `git log -n 5`, `git merge -n` (no stat).
 */

export interface Verdict {
  blocked: boolean;
  reason?: string;
}

/** Shell words per simple command; operators (; && || | & newline parens) split commands. */
export function splitShellCommands(command: string): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let word = "";
  let inWord = false;
  const endWord = (): void => {
    if (inWord) words.push(word);
    word = "";
    inWord = false;
  };
  const endCommand = (): void => {
    endWord();
    if (words.length) commands.push(words);
    words = [];
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i] as string;
    if (c === "'") {
      const end = command.indexOf("'", i + 1);
      word += command.slice(i + 1, end === -1 ? undefined : end);
      inWord = true;
      i = end === -1 ? command.length : end;
    } else if (c === '"') {
      inWord = true;
      for (i++; i < command.length && command[i] !== '"'; i++) {
        if (command[i] === "\\" && i + 1 < command.length && '"\\$`'.includes(command[i + 1]!)) i++;
        word += command[i];
      }
    } else if (c === "\\" && i + 1 < command.length) {
      if (command[i + 1] !== "\n") word += command[i + 1];
      inWord = true;
      i++;
    } else if (/\s/.test(c)) {
      if (c === "\n") endCommand();
      else endWord();
    } else if (";&|()".includes(c)) {
      endCommand();
    } else if (c === "#" && !inWord) {
      const nl = command.indexOf("\n", i);
      i = nl === -1 ? command.length : nl - 1;
    } else {
      word += c;
      inWord = true;
    }
  }
  endCommand();
  return commands;
}

const GIT_GLOBAL_WITH_VALUE = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace"]);
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh"]);

function baseName(word: string): string {
  return word.replace(/^.*[\\/]/, "").replace(/\.exe$/i, "");
}

/** `--no-verify` or an abbreviation git would accept for it (`--no-veri`, `--no-verif`). */
function isNoVerifyFlag(word: string): boolean {
  return word.length >= "--no-veri".length && "--no-verify".startsWith(word);
}

/** Short-option letters of `git commit` that take a value (the rest of the cluster or next word). */
const COMMIT_SHORT_WITH_VALUE = new Set(["m", "F", "c", "C", "t"]);
const COMMIT_SHORT_OPTIONAL_ATTACHED = new Set(["u", "S"]);
const COMMIT_LONG_WITH_VALUE = new Set([
  "--message",
  "--file",
  "--reuse-message",
  "--reedit-message",
  "--fixup",
  "--squash",
  "--author",
  "--date",
  "--template",
  "--trailer",
  "--cleanup",
  "--pathspec-from-file",
]);

function checkGit(args: string[]): Verdict {
  let i = 0;
  // Global options before the subcommand.
  for (; i < args.length; i++) {
    const a = args[i] as string;
    if (!a.startsWith("-")) break;
    if (a === "-c" || a.startsWith("-c")) {
      const kv = a === "-c" ? (args[i + 1] ?? "") : a.slice(2);
      if (/^core\.hookspath=/i.test(kv))
        return { blocked: true, reason: "overrides core.hooksPath, which disables git hooks" };
    }
    if (/^--config-env=core\.hookspath=/i.test(a))
      return { blocked: true, reason: "overrides core.hooksPath, which disables git hooks" };
    if (GIT_GLOBAL_WITH_VALUE.has(a)) i++;
  }
  const sub = args[i];
  const rest = args.slice(i + 1);
  for (let j = 0; j < rest.length; j++) {
    const a = rest[j] as string;
    if (a === "--") break;
    if (isNoVerifyFlag(a)) return { blocked: true, reason: `uses ${a}, which skips git hooks` };
    if (sub !== "commit") continue;
    if (COMMIT_LONG_WITH_VALUE.has(a)) {
      j++;
      continue;
    }
    if (/^-[^-]/.test(a)) {
      for (const letter of a.slice(1)) {
        if (letter === "n")
          return { blocked: true, reason: `uses ${a} (-n is --no-verify for git commit)` };
        if (COMMIT_SHORT_WITH_VALUE.has(letter)) {
          if (a.endsWith(letter)) j++; // the value is the next word
          break;
        }
        if (COMMIT_SHORT_OPTIONAL_ATTACHED.has(letter)) break;
      }
    }
  }
  return { blocked: false };
}

export function checkCommand(command: string, depth = 0): Verdict {
  for (const words of splitShellCommands(command)) {
    for (let k = 0; k < words.length; k++) {
      const w = words[k] as string;
      if (/^HUSKY=0$/.test(w))
        return { blocked: true, reason: "sets HUSKY=0, which skips the project's git hooks" };
      const name = baseName(w);
      if (SHELLS.has(name) && words[k + 1] === "-c" && words[k + 2] !== undefined && depth < 3) {
        const inner = checkCommand(words[k + 2] as string, depth + 1);
        if (inner.blocked) return inner;
      }
      if (name === "git") {
        const verdict = checkGit(words.slice(k + 1));
        if (verdict.blocked) return verdict;
        break;
      }
    }
  }
  return { blocked: false };
}
