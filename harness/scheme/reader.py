"""The reader: Scheme source text -> data, with the position of every pair.

The grammar lives in grammar.lark; ``DatumBuilder`` (the transformer run inside lark's LALR
parser, so no parse tree is built) turns tokens into values. Every callback returns a
``(value, line, col)`` triple so that list callbacks can record the position of each
element in a ``SourceMap``. lark is imported on the first read, not with this module: a
start whose tool files all come from the parse cache never needs it.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path

from harness.scheme.datatypes import (
    EOF,
    NIL,
    Bytevector,
    Char,
    String,
    Symbol,
    Vector,
    sym,
)
from harness.scheme.errors import ReadError, SizeLimitExceeded, SourcePos
from harness.scheme.extent import MAX_NESTING, datum_end, skip_block, unclosed_opener
from harness.scheme.limits import BULK_ITEMS_PER_STEP, CHUNK, MAX_ALLOC, charge

#: steps a datum read costs: the reader takes ~3 µs a datum (60 steps' time), but its real
#: guard is the deadline checked with each charge; at 10 a 1 MB tool file costs ~2.5 M steps
STEPS_PER_DATUM = 10

# lark is imported where a text is parsed (a cached program never needs it), and typing not
# at all: it costs ~2 ms of every harness process's start-up (test_startup_imports.py)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from lark import Lark, Token
    from lark.exceptions import UnexpectedInput

CHAR_NAMES = {
    "alarm": "\a", "backspace": "\b", "delete": "\x7f", "escape": "\x1b", "newline": "\n",
    "null": "\0", "return": "\r", "space": " ", "tab": "\t",
}
_ESCAPES = {"a": "\a", "b": "\b", "t": "\t", "n": "\n", "r": "\r", '"': '"', "\\": "\\",
            "|": "|"}
# `\` at the end of a line (LF, CRLF or CR, spaces and tabs around it) continues the line
_ESCAPE_RE = re.compile(r"\\(x[0-9a-fA-F]+;|[ \t]*(?:\r\n|\r|\n)[ \t]*|.)", re.DOTALL)

Q_QUOTE, Q_QUASIQUOTE, Q_UNQUOTE, Q_UNQUOTE_SPLICING = (
    sym("quote"), sym("quasiquote"), sym("unquote"), sym("unquote-splicing"))


class SourceMap:
    """Positions of the pairs read from one source text.

    ``pos_of(pair)`` is the position of the element the pair holds (for the first pair of a
    list: the opening parenthesis). Pairs are keyed by id and kept alive by the map.
    """

    __slots__ = ("_pos", "name", "text")

    def __init__(self, name: str, text: str) -> None:
        self.name = name
        self.text = text
        self._pos: dict[int, tuple[object, int, int]] = {}

    def add(self, pair: list, line: int, col: int) -> None:
        self._pos[id(pair)] = (pair, line, col)

    @property
    def entries(self) -> dict[int, tuple[object, int, int]]:
        """What ``add`` fills: id(pair) -> (pair, line, col) (for the parse cache's loops)."""
        return self._pos

    def pos_of(self, datum: object) -> SourcePos | None:
        entry = self._pos.get(id(datum))
        if entry is None or entry[0] is not datum:
            return None
        return SourcePos(self.name, entry[1], entry[2])


class _Label:
    """A ``#n#`` reference seen before its ``#n=`` datum is complete."""

    __slots__ = ("n", "value", "where")

    def __init__(self, n: int, where: SourcePos) -> None:
        self.n = n
        self.value: object = self
        self.where = where


_SKIP = object()  # what a datum comment or directive leaves behind
_NO_LABEL = object()


def _unescape(body: str, where: SourcePos) -> str:
    if "\\" not in body:
        return body

    def replace(m: re.Match) -> str:
        esc = m.group(1)
        if esc[0] == "x" and esc.endswith(";") and len(esc) > 2:
            c = _scalar_value(esc[1:-1])
            if c is None:
                raise ReadError(f"invalid hex escape \\{esc}: not a Unicode scalar value",
                                where)
            return c
        if "\n" in esc or "\r" in esc:
            return ""
        if esc in _ESCAPES:
            return _ESCAPES[esc]
        raise ReadError(f"unknown string escape \\{esc}", where)

    return _ESCAPE_RE.sub(replace, body)


def _scalar_value(digits: str) -> str | None:
    """The character whose code point ``digits`` spells in hex, if it is a Unicode scalar
    value (R7RS: not a surrogate, at most #x10FFFF); None otherwise."""
    try:
        code = int(digits, 16)
    except ValueError:
        return None
    if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
        return None
    return chr(code)


def _parse_number(text: str, where: SourcePos):
    from harness.scheme.numparse import parse_number
    try:
        return parse_number(text)
    except SizeLimitExceeded as exc:
        raise ReadError(f"number literal too large: {exc.message}", where) from None


class DatumBuilder:
    """Builds Scheme data from tokens; records pair positions in ``source_map``.

    lark calls the method named after each grammar rule (a plain class will do: every rule
    has one, so lark's Transformer base, and its import, are not needed)."""

    def __init__(self, source_map: SourceMap) -> None:
        self.reset(source_map)

    def reset(self, source_map: SourceMap) -> None:
        self.map = source_map
        self.name = source_map.name
        self.fold_case = False
        self.labels: dict[int, object] = {}
        self.has_labels = False
        self.work = 0  # data built since the last charge

    def count(self, n: int = 1) -> None:
        """Reading is slow (~3 µs a datum): it counts against the running budget as it
        goes, so one huge datum cannot run on past a deadline."""
        self.work += n
        if self.work >= CHUNK:
            charge(self.work * STEPS_PER_DATUM)
            self.work = 0

    def _where(self, tok: Token) -> SourcePos:
        return SourcePos(self.name, tok.line, tok.column)

    def top(self, c):
        self.labels.clear()
        return c[0]

    def start(self, items):
        for d in items:
            if d[0] is _DOT:
                raise ReadError("unexpected '.' outside a list", SourcePos(self.name, d[1], d[2]))
        return [d for d in items if d[0] is not _SKIP]

    # -- atoms ---------------------------------------------------------------------
    def atom(self, c):
        self.count()
        tok = c[0]
        text = str(tok)
        if text == ".":
            return (_DOT, tok.line, tok.column)
        first = text[0]
        if first.isdigit() or first in "+-.":
            num = _parse_number(text, self._where(tok))
            if num is not None:
                return (num, tok.line, tok.column)
        if self.fold_case:
            text = text.casefold()
        return (Symbol.intern(text), tok.line, tok.column)

    def prefixed_number(self, c):
        tok = c[0]
        num = _parse_number(str(tok), self._where(tok))
        if num is None:
            raise ReadError(f"bad number syntax {str(tok)!r}", self._where(tok))
        return (num, tok.line, tok.column)

    def boolean(self, c):
        tok = c[0]
        return (tok[1] in "tT", tok.line, tok.column)

    def char(self, c):
        tok = c[0]
        body = str(tok)[2:]
        if len(body) == 1:
            return (Char.of(body), tok.line, tok.column)
        name = body.casefold() if self.fold_case else body
        if name in CHAR_NAMES:
            return (Char.of(CHAR_NAMES[name]), tok.line, tok.column)
        if name[0] in "xX" and len(name) > 1:
            char = _scalar_value(name[1:])
            if char is not None:
                return (Char.of(char), tok.line, tok.column)
            if all(d in "0123456789abcdefABCDEF" for d in name[1:]):
                raise ReadError(f"#\\{body}: not a Unicode scalar value", self._where(tok))
        raise ReadError(f"unknown character name #\\{body}", self._where(tok))

    def _literal(self, tok: Token) -> str:
        """The body of a string or |symbol| token, unescaped, after its cost is charged:
        a literal is one C call to lex and one pass to unescape, whatever its size, so it
        is counted by its length (and its escapes, a Python call each) and capped."""
        body = str(tok)[1:-1]
        size = len(body)
        if size > MAX_ALLOC:
            raise ReadError(f"literal of {size} characters is over the limit of {MAX_ALLOC}",
                            self._where(tok))
        if size > CHUNK:
            escapes = body.count("\\")
            charge(size // BULK_ITEMS_PER_STEP + escapes * STEPS_PER_DATUM, 4 * size)
        return _unescape(body, self._where(tok))

    def string(self, c):
        self.count()
        tok = c[0]
        return (String(self._literal(tok)), tok.line, tok.column)

    def pipe_symbol(self, c):
        tok = c[0]
        return (Symbol.intern(self._literal(tok)), tok.line, tok.column)

    def directive(self, c):
        self.fold_case = str(c[0]).lower() == "#!fold-case"
        return (_SKIP, 0, 0)

    def datum_comment(self, c):
        removed, line, col = c[-1]
        if removed is _DOT:  # `.` is no datum: `(a #;. b)` is an error, as in chibi-scheme
            raise ReadError("#; must be followed by a datum, got '.'",
                            SourcePos(self.name, line, col))
        return (_SKIP, 0, 0)

    # -- compound data -----------------------------------------------------------------
    def list(self, c):
        self.count()
        open_tok = c[0]
        items = [d for d in c[1:-1] if d[0] is not _SKIP]
        tail = NIL
        n = len(items)
        for i, d in enumerate(items):
            if d[0] is _DOT:
                if i != n - 2 or i == 0 or items[-1][0] is _DOT:  # `(a . .)` too
                    raise ReadError("misplaced '.' in list", SourcePos(self.name, d[1], d[2]))
                tail = items[-1][0]
                items = items[:-2]
                break
        result = tail
        smap = self.map
        for value, line, col in reversed(items):
            result = [value, result]
            smap.add(result, line, col)
        if result is not NIL:
            smap.add(result, open_tok.line, open_tok.column)
        return (result, open_tok.line, open_tok.column)

    def vector(self, c):
        items = [d[0] for d in c[1:-1] if d[0] is not _SKIP]
        for v in items:
            if v is _DOT:
                raise ReadError("unexpected '.' in a vector", self._where(c[0]))
        return (Vector(items), c[0].line, c[0].column)

    def bytevector(self, c):
        items = [d for d in c[1:-1] if d[0] is not _SKIP]
        data = bytearray()
        for v, line, col in items:
            if type(v) is not int or not 0 <= v <= 255:
                raise ReadError("bytevector element must be an exact integer 0..255",
                                SourcePos(self.name, line, col))
            data.append(v)
        return (Bytevector(data), c[0].line, c[0].column)

    def _abbrev(self, head: Symbol, c):
        tok, (value, line, col) = c[0], c[-1]  # datum comments in between are dropped
        if value is _DOT:
            raise ReadError("unexpected '.' after a quote prefix", SourcePos(self.name, line, col))
        inner = [value, NIL]
        self.map.add(inner, line, col)
        outer = [head, inner]
        self.map.add(outer, tok.line, tok.column)
        return (outer, tok.line, tok.column)

    def quote(self, c):
        return self._abbrev(Q_QUOTE, c)

    def quasiquote(self, c):
        return self._abbrev(Q_QUASIQUOTE, c)

    def unquote(self, c):
        return self._abbrev(Q_UNQUOTE, c)

    def unquote_splicing(self, c):
        return self._abbrev(Q_UNQUOTE_SPLICING, c)

    def label_def(self, c):
        tok, (value, _line, _col) = c[0], c[-1]
        n = int(str(tok)[1:-1])
        label = self.labels.get(n, _NO_LABEL)
        if isinstance(label, _Label):
            ref = label.where
            if (ref.line, ref.col) < (tok.line, tok.column):
                raise ReadError(f"datum label #{n}# is used before #{n}= defines it", ref)
            label.value = value
        elif label is not _NO_LABEL:
            raise ReadError(f"datum label #{n}= is defined twice in one datum",
                            self._where(tok))
        self.labels[n] = value
        self.has_labels = True
        return (value, tok.line, tok.column)

    def label_ref(self, c):
        tok = c[0]
        n = int(str(tok)[1:-1])
        if n not in self.labels:
            self.labels[n] = _Label(n, self._where(tok))
        self.has_labels = True
        return (self.labels[n], tok.line, tok.column)


class _Dot:
    __slots__ = ()


_DOT = _Dot()

_GRAMMAR = Path(__file__).with_name("grammar.lark")
_local = threading.local()


def _get_parser() -> tuple[Lark, DatumBuilder]:
    """This thread's parser and the builder embedded in it (builders carry per-read state)."""
    try:
        return _local.parser
    except AttributeError:
        from lark import Lark
        builder = DatumBuilder(SourceMap("<string>", ""))
        parser = Lark(_GRAMMAR.read_text(), parser="lalr", lexer="contextual", cache=True,
                      maybe_placeholders=False, transformer=builder)
        _local.parser = (parser, builder)
        return _local.parser


def _blank_block_comments(text: str, name: str) -> str:
    """Replace nested ``#| ... |#`` comments (and a leading ``#!/`` or ``#! `` script line)
    by spaces. Any other ``#!`` is a directive, and an unknown one a read error."""
    if text.startswith(("#!/", "#! ")):
        nl = text.find("\n")
        text = " " * (len(text) if nl < 0 else nl) + ("" if nl < 0 else text[nl:])
    if "#|" not in text:
        return text
    out = []
    i = 0
    # `#;` is no line comment: it is matched first so that `;[^\n]*` never starts inside it
    scan = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+"|\|[^|\\]*+(?:\\.[^|\\]*+)*+\||#\\.|#;|;[^\n]*|#\|', re.DOTALL)
    while True:
        m = scan.search(text, i)
        if m is None:
            out.append(text[i:])
            break
        if m.group() != "#|":
            out.append(text[i:m.end()])
            i = m.end()
            continue
        out.append(text[i:m.start()])
        j = skip_block(text, m.end())
        if j is None:
            line = text.count("\n", 0, m.start()) + 1
            col = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
            raise ReadError("unterminated block comment #|", SourcePos(name, line, col))
        out.append(re.sub(r"[^\n]", " ", text[m.start():j]))
        i = j
    return "".join(out)


def _label_value(label: _Label, name: str) -> object:
    if label.value is label or isinstance(label.value, _Label):
        raise ReadError(f"datum label #{label.n}# is never defined (or only as itself)",
                        label.where)
    return label.value


def _resolve_labels(datum: object, name: str) -> object:
    """Replace ``_Label`` placeholders by their values (iteratively: data may be cyclic)."""
    if isinstance(datum, _Label):
        return _label_value(datum, name)
    seen: set[int] = set()
    stack = [datum]
    while stack:
        x = stack.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        if x.__class__ is list:
            for i in (0, 1):
                v = x[i]
                if isinstance(v, _Label):
                    x[i] = _label_value(v, name)
                else:
                    stack.append(v)
        elif isinstance(x, Vector):
            for i, v in enumerate(x.items):
                if isinstance(v, _Label):
                    x.items[i] = _label_value(v, name)
                else:
                    stack.append(v)
    return datum


_NOT_NESTING = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+"|\|[^|\\]*+(?:\\.[^|\\]*+)*+\||#\\.|#;|;[^\n]*|[^()]+',
                          re.DOTALL)


_PREFIX_RUN = re.compile(r"(?:(?:['`]|,@?|#\d+=)\s*){" + str(MAX_NESTING + 1) + "}")


def _check_nesting(text: str, name: str) -> None:
    """ReadError if data nest deeper than MAX_NESTING (cheap: C-level passes only).

    Brackets nest, and so do runs of prefixes (quote marks, #n= labels)."""
    if len(text) > MAX_NESTING:
        run = _PREFIX_RUN.search(text)
        if run is not None:
            raise ReadError(f"data nested more than {MAX_NESTING:,} levels deep",
                            _position(text, name, run.start()))
    if text.count("(") <= MAX_NESTING:
        return
    parens = _NOT_NESTING.sub("", text)
    depth = 0
    # walk runs of equal parentheses, not characters: '(((...' costs one step per run
    for run in re.finditer(r"\(+|\)+", parens):
        n = run.end() - run.start()
        if parens[run.start()] == "(":
            depth += n
            if depth > MAX_NESTING:
                raise ReadError(f"data nested more than {MAX_NESTING:,} levels deep",
                                _position(text, name, _offset_of_open(text, MAX_NESTING + 1)))
        else:
            depth = max(depth - n, 0)


def _offset_of_open(text: str, k: int) -> int:
    """Offset of the k-th '(' of the text (for the position of a nesting error)."""
    i = -1
    for _ in range(k):
        i = text.find("(", i + 1)
        if i < 0:
            return 0
    return i


def _position(text: str, name: str, offset: int) -> SourcePos:
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return SourcePos(name, line, col)


#: what a message quotes of a '#' syntax the grammar refuses: up to a delimiter, 20 at most
_HASH_TOKEN = re.compile(r'#[^\s()";]{0,19}')


def _read_error(exc: UnexpectedInput, text: str, name: str) -> ReadError:
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken
    if isinstance(exc, UnexpectedEOF) or (
            isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        opener = unclosed_opener(text)
        if opener is not None:
            return ReadError(f"unexpected end of input: '{text[opener]}' is never closed",
                             _position(text, name, opener))
        return ReadError("unexpected end of input", _position(text, name, len(text)))
    where = SourcePos(name, exc.line, exc.column)
    if isinstance(exc, UnexpectedToken):
        tok = str(exc.token)
        if tok == ")":
            return ReadError("unexpected ')'", where)
        return ReadError(f"unexpected {tok!r}", where)
    if isinstance(exc, UnexpectedCharacters):
        ch = text[exc.pos_in_stream] if exc.pos_in_stream < len(text) else "?"
        if ch in "[]{}":
            return ReadError(f"'{ch}' is reserved in R7RS Scheme: lists are written with "
                             "'(' and ')'", where)
        if ch == '"':
            return ReadError("unterminated string", where)
        if ch == "|":
            return ReadError("unterminated |symbol|", where)
        if ch == "#":
            token = _HASH_TOKEN.match(text, exc.pos_in_stream).group()
            if token.startswith("#!"):
                return ReadError(f"unknown directive {token!r} (R7RS has #!fold-case and "
                                 "#!no-fold-case)", where)
            return ReadError(f"bad syntax {token!r}", where)
        return ReadError(f"unexpected character {ch!r}", where)
    return ReadError(str(exc).splitlines()[0], where)


def read_all(text: str, name: str = "<string>") -> tuple[list, SourceMap]:
    """Read every datum of ``text``; return them with the positions of their pairs."""
    values, smap, _ = _read(text, name, False)
    return values, smap


def _read(text: str, name: str, fold_case: bool) -> tuple[list, SourceMap, bool]:
    """``read_all`` starting with ``#!fold-case`` in effect or not; also says whether it is
    in effect at the end of the text."""
    smap = SourceMap(name, text)
    parser, builder = _get_parser()
    from lark.exceptions import UnexpectedInput  # loaded by _get_parser: a dict lookup now
    builder.reset(smap)
    builder.fold_case = fold_case
    if len(text) > CHUNK:  # the passes below are C calls over the whole text: charged first
        charge(len(text) // BULK_ITEMS_PER_STEP, len(text))
    try:
        blanked = _blank_block_comments(text, name)
        _check_nesting(blanked, name)
        data = parser.parse(blanked)
    except UnexpectedInput as exc:
        raise _read_error(exc, text, name) from None
    except RecursionError:
        raise ReadError("data nested too deeply", SourcePos(name, 1, 1)) from None
    except ReadError:
        raise
    except Exception as exc:  # lark wraps callback errors in VisitError
        inner = getattr(exc, "orig_exc", None)
        if isinstance(inner, ReadError):
            raise inner from None
        raise
    values = [d[0] for d in data]
    if builder.has_labels:
        values = [_resolve_labels(v, name) for v in values]
    return values, smap, builder.fold_case


def read_one(text: str, start: int = 0, name: str = "<port>") -> tuple[object, int]:
    """Read the first datum at or after ``start``; return it and the offset just past it.

    At end of input (only whitespace and comments left) the datum is ``EOF``.
    """
    datum, end, _ = read_from(text, start, name, False)
    return datum, end


def read_from(text: str, start: int, name: str, fold_case: bool) -> tuple[object, int, bool]:
    """``read_one`` for a port: ``fold_case`` says whether a ``#!fold-case`` read before
    from the same port is in effect (R7RS 2.1); the answer says whether it is afterwards."""
    end = datum_end(text, start)
    if end is None:
        return EOF, len(text), fold_case
    values, _, fold_case = _read(text[start:end], name, fold_case)
    if not values:
        return EOF, len(text), fold_case
    return values[0], end, fold_case
