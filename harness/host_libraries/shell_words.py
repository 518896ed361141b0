"""Reading a shell command line the way a shell splits it, closely enough for a guard:
the Python half of ``(harness guards)`` (scheme_lib/harness/guards.sld).

``shell_pipelines(text)`` gives every pipeline ``text`` runs — each a list of commands,
each a list of words with their quotes and backslashes removed: ``;``, ``&&``, ``||``,
``&``, newlines and parentheses end a pipeline; ``|`` and ``|&`` end a command inside one;
``#`` at the start of a word comments out the rest of the line; ``${NAME}`` and
redirections (``2>&1``, ``>/dev/null``) stay words. What runs inside is read too: the
texts of ``$(...)``, backticks, ``<(...)`` and ``>(...)`` (which also stay in their word as
written, so ``bash <(curl x)`` shows what it runs), the script of ``sh -c SCRIPT`` (bash,
zsh, ...), the words after ``eval``, and a heredoc's body when it goes to a shell
(``bash <<EOF``); any other heredoc is data, skipped.

``unwrap(words)`` drops what comes before the program a command really runs (``VAR=x``,
``sudo -u bob``, ``env``, ``xargs -n 1``, ``timeout 10``, ...), ``program_name(words)``
is that program's name and ``programs(words)`` names the programs on the way (``["sudo",
"env", "rm"]``).

It is Python, not Scheme, because a guard reads every shell command of a session: in
Scheme this took about 150 µs a command per guard (a 78 KB heredoc ran past the sandbox's
5 s time limit with six guards), here a few µs.
"""

from __future__ import annotations

import re
from collections import deque

_BLANKS = " \t\r"
#: characters that mean nothing special anywhere
_PLAIN = re.compile(r"[^ \t\r\n'\"\\`$<>|&;()#]+")
_PIPELINE_ENDS = "\n;()"


Pipeline = list[list[str]]

#: programs that read a script: from -c, from a heredoc, from a pipe
SHELLS = frozenset(("sh", "bash", "zsh", "dash", "ksh", "fish", "busybox"))

#: programs that run the rest of their words as a command: how many words come before
#: that command (timeout's duration) and which of their options take a value
WRAPPERS: dict[str, tuple[int, frozenset[str]]] = {
    name: (positional, frozenset(options)) for name, positional, *options in (
        ("sudo", 0, "-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T", "--user",
         "--group"),
        ("doas", 0, "-u", "-C"), ("pkexec", 0, "--user"),
        ("env", 0, "-u", "-C", "-S", "--unset", "--chdir", "--split-string"),
        ("nohup", 0), ("time", 0, "-f", "-o"), ("command", 0), ("builtin", 0),
        ("exec", 0, "-a"), ("nice", 0, "-n", "--adjustment"), ("ionice", 0, "-c", "-n"),
        ("chrt", 1), ("taskset", 1), ("stdbuf", 0, "-i", "-o", "-e"),
        ("timeout", 1, "-s", "-k", "--signal", "--kill-after"),
        ("xargs", 0, "-I", "-n", "-P", "-L", "-d", "-E", "-s", "-a", "--max-args",
         "--max-procs", "--delimiter", "--arg-file"),
        # shell keywords a command can start with
        ("if", 0), ("then", 0), ("else", 0), ("elif", 0), ("do", 0), ("while", 0),
        ("until", 0), ("!", 0), ("{", 0), ("}", 0))}

#: characters read per call at most, inner texts included (each inner text is shorter
#: than the one it is in, but `eval eval eval ...` reads its text again and again)
MAX_CHARACTERS = 2_000_000


class CommandTooLargeError(ValueError):
    """A command whose inner texts add up to more than MAX_CHARACTERS: a guard must say
    no to what it cannot read, so this is an error, never a shorter answer."""


def shell_pipelines(text: str) -> list[Pipeline]:
    """Every pipeline ``text`` runs, inner ones included (see the module doc), in the
    order they are found. Raises CommandTooLargeError."""
    out: list[Pipeline] = []
    todo = deque([text])
    budget = MAX_CHARACTERS
    while todo:
        text = todo.popleft()
        budget -= len(text)
        if budget < 0:
            raise CommandTooLargeError(f"the command is too large to read (more than "
                                       f"{MAX_CHARACTERS} characters with what runs inside)")
        reader = _Reader(text)
        reader.read()
        out.extend(reader.pipelines)
        todo.extend(reader.nested)
        for pipeline in reader.pipelines:
            todo.extend(script for command in pipeline
                        if (script := _script(command)) is not None)
        # a heredoc is a script when its pipeline has a shell: bash <<EOF, cat <<EOF | sh
        todo.extend(body for pipeline, body in reader.heredocs
                    if any(_name(unwrap(command)) in SHELLS for command in pipeline))
    return out


def _script(words: list[str]) -> str | None:
    """The script a command hands to a shell: ``bash -c SCRIPT``, ``sh -lc SCRIPT``,
    ``eval WORDS...``; else None."""
    inner = unwrap(words)
    name, args = _name(inner), inner[1:]
    if name == "eval":
        return " ".join(args) if args else None
    if name in SHELLS:
        for i, word in enumerate(args[:-1]):
            if len(word) > 1 and word[0] == "-" and word[1] != "-" and "c" in word:
                return args[i + 1]
    return None


def _name(words: list[str]) -> str:
    return words[0].rstrip("/").rsplit("/", 1)[-1] if words else ""


def _assignment(word: str) -> bool:
    """NAME=VALUE before a command (an environment assignment)."""
    name, eq, _ = word.partition("=")
    return bool(eq) and name.replace("_", "a").isalnum()


def unwrap(words: list[str]) -> list[str]:
    """``words`` from the program they really run: assignments and wrappers with their
    options skipped. ``sudo -u bob env X=1 rm -rf d`` -> ``["rm", "-rf", "d"]``."""
    return _walk(words)[1]


def program_name(words: list[str]) -> str:
    """The name of the program ``words`` really runs: ``rm`` for ``sudo /bin/rm -rf x``
    (or "" when there is none)."""
    return _name(_walk(words)[1])


def programs(words: list[str]) -> list[str]:
    """The names of the programs ``words`` goes through, wrappers first:
    ``sudo env X=1 rm -rf d`` -> ``["sudo", "env", "rm"]``."""
    chain, inner = _walk(words)
    return chain + [_name(inner)] if inner else chain


def _walk(words: list[str]) -> tuple[list[str], list[str]]:
    chain: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        if _assignment(word):
            i += 1
            continue
        wrapper = WRAPPERS.get(_name([word]))
        if wrapper is None:
            break
        chain.append(_name([word]))
        positional, valued = wrapper
        i += 1
        while i < len(words):
            word = words[i]
            if word == "--":
                i += 1
                break
            if word in valued:
                i += 2
            elif word.startswith("-") or _assignment(word):
                i += 1
            elif positional:
                positional -= 1
                i += 1
            else:
                break
    return chain, words[i:]


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0
        self.word: list[str] | None = None  # the word being read; None between words
        self.command: list[str] = []
        self.pipeline: list[list[str]] = []
        self.pipelines: list[list[list[str]]] = []
        self.nested: list[str] = []
        #: (pipeline, body) of each heredoc, and the delimiters still to be read
        self.heredocs: list[tuple[Pipeline, str]] = []
        self._pending: list[tuple[Pipeline, str]] = []

    def peek(self) -> str:
        return self.text[self.at] if self.at < len(self.text) else ""

    def add(self, chars: str) -> None:
        if self.word is None:
            self.word = []
        self.word.append(chars)

    def end_word(self) -> None:
        if self.word is not None:
            self.command.append("".join(self.word))
            self.word = None

    def end_command(self) -> None:
        self.end_word()
        if self.command:
            self.pipeline.append(self.command)
            self.command = []

    def end_pipeline(self) -> None:
        self.end_command()
        if self.pipeline:
            self.pipelines.append(self.pipeline)
            self.pipeline = []

    def quoted(self, quote: str) -> str:
        """After an opening ``quote``: the text up to the closing one (consumed); a
        backslash escapes the next character except between single quotes."""
        out = []
        text = self.text
        while self.at < len(text):
            c = text[self.at]
            self.at += 1
            if c == quote:
                break
            if c == "\\" and quote != "'" and self.at < len(text):
                c = text[self.at]
                self.at += 1
            out.append(c)
        return "".join(out)

    def group(self) -> str:
        """After an opening ``(``: the text up to the matching ``)`` (consumed); quoted
        parentheses do not count."""
        start = self.at
        depth = 1
        text = self.text
        while self.at < len(text):
            c = text[self.at]
            self.at += 1
            if c in "'\"":
                self.quoted(c)
            elif c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
                if depth == 0:
                    return text[start:self.at - 1]
        return text[start:]

    def substitution(self, opener: str) -> None:
        inner = self.group()
        self.nested.append(inner)
        self.add(f"{opener}{inner})")

    def backticks(self) -> None:
        inner = self.quoted("`")
        self.nested.append(inner)
        self.add(f"`{inner}`")

    def double_quoted(self) -> None:
        self.add("")  # "" is a word too
        text = self.text
        while self.at < len(text):
            c = text[self.at]
            self.at += 1
            if c == '"':
                return
            if c == "\\" and self.peek() in ('"', "\\", "$", "`"):
                self.add(text[self.at])
                self.at += 1
            elif c == "$" and self.peek() == "(":
                self.at += 1
                self.substitution("$(")
            elif c == "`":
                self.backticks()
            else:
                self.add(c)

    def read(self) -> None:
        text = self.text
        while self.at < len(text):
            plain = _PLAIN.match(text, self.at)
            if plain:  # a run of ordinary characters: most of any command
                self.add(plain.group())
                self.at = plain.end()
                continue
            c = text[self.at]
            self.at += 1
            nxt = self.peek()
            if c in _BLANKS:
                self.end_word()
            elif c == "#" and self.word is None:  # a comment, to the end of the line
                end = text.find("\n", self.at)
                self.at = len(text) if end < 0 else end
            elif c == "\\":
                if nxt == "\n":  # a line continued
                    self.at += 1
                    self.end_word()
                elif nxt:
                    self.add(nxt)
                    self.at += 1
            elif c == "'":
                self.add(self.quoted("'"))
            elif c == '"':
                self.double_quoted()
            elif c == "`":
                self.backticks()
            elif c == "$" and nxt == "(":
                self.at += 1
                self.substitution("$(")
            elif c == "$" and nxt == "{":  # ${NAME}: part of the word
                self.at += 1
                self.add("${" + self.quoted("}") + "}")
            elif c in "<>" and nxt == "(":
                self.at += 1
                self.substitution(c + "(")
            elif c == "|":
                if nxt == "|":
                    self.at += 1
                    self.end_pipeline()
                else:
                    if nxt == "&":
                        self.at += 1
                    self.end_command()
            elif c == "&":
                if nxt == "&":
                    self.at += 1
                    self.end_pipeline()
                elif nxt == ">" or (self.word and self.word[-1][-1:] in ("<", ">")):
                    self.add(c)  # &>file, 2>&1: a redirection
                else:
                    self.end_pipeline()
            elif c == "<" and nxt == "<" and self.text[self.at + 1:self.at + 2] != "<":
                self.heredoc()
            elif c in _PIPELINE_ENDS:
                self.end_pipeline()
                if c == "\n" and self._pending:
                    self.heredoc_bodies()
            else:
                self.add(c)
        self.end_pipeline()

    def heredoc(self) -> None:
        """``<<WORD`` / ``<<-WORD`` / ``<<'WORD'``: its body starts at the next line."""
        self.at += 1
        if self.peek() == "-":
            self.at += 1
        while self.peek() in (" ", "\t"):
            self.at += 1
        text = self.text
        start = self.at
        while self.at < len(text) and text[self.at] not in " \t\n;|&<>()":
            self.at += 1
        delimiter = text[start:self.at].replace("'", "").replace('"', "").replace("\\", "")
        self.end_word()
        self._pending.append((self.pipeline, delimiter))  # the list it is read into

    def heredoc_bodies(self) -> None:
        """At the end of a heredoc's line: skip each pending body, keeping its text."""
        text = self.text
        for pipeline, delimiter in self._pending:
            lines = []
            while self.at < len(text):
                end = text.find("\n", self.at)
                end = len(text) if end < 0 else end
                line = text[self.at:end]
                self.at = end + 1
                if line.strip("\t") == delimiter:
                    break
                lines.append(line)
            self.heredocs.append((pipeline, "\n".join(lines)))
        self._pending = []
