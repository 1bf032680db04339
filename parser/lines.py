"""Reading hands line by line with a site's grammar: each line, then the order of the lines.

A text site's grammar (`grammar/<site>.lark`) has two layers. `line` reads one line into a
record (the site's transformer builds it); `hand` says in which order a hand's lines may
come, over their kinds: a line read by the rule `x` is the token `L_X` there. `LineGrammar`
builds both from the one `.lark` file, with Lark's own cache of the built parser (a process
that reads one file should not pay for building the tables):

* a line not read before in the file is read by regular expressions made at start-up from
  the grammar itself, its LALR table, its lexer's order and its callbacks (`LinePatterns`):
  the record Lark would build, without Lark; the lines they do not read are read together,
  in one call of the LALR parser (start rule `lines`), which also says what is wrong with a
  line. A line read before, while the players it names are seated, gives the record it
  gave then (`FileLines`): more than half of a real file's lines repeat an earlier one;
* the order is checked by a regular expression made from the `hand` rule (which is not
  recursive: `hand` is a regular language over the kinds), one letter per kind; only a hand
  out of order is parsed by the LALR parser of `hand`, for its error message.

A line that does not read, and a hand whose lines are out of order, become a `ParseError`
with the line, the column and what the grammar expected there, in the grammar's words (its
`//:` lines).
"""

from __future__ import annotations

import getpass
import hashlib
import json
import os
import re
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from itertools import compress
from operator import is_not, not_
from pathlib import Path
from typing import Any, NamedTuple, cast

from lark import Lark, Token, Transformer
from lark.exceptions import LarkError, UnexpectedInput
from lark.lexer import Lexer
from lark.load_grammar import FromPackageLoader, PackageResource, load_grammar
from lark.parse_tree_builder import ExpandSingleChild
from lark.parsers.lalr_analysis import Shift

from razz.grammar import PACKAGE, grammar_text
from razz.parser.errors import describe_error, descriptions, literal_terminals
from razz.parser.events import ParseError
from razz.parser.lexer import NameRules, name_lexers, state_after

KIND_PREFIX = "L_"


class Record(NamedTuple):
    """One line as the grammar read it, before it is an event of a hand."""

    kind: str  # the line rule's name: "bet", "dealt_3_1", "seat_line" …
    payload: Any  # what the site's transformer kept of the line (texts, not yet amounts)
    names: tuple[tuple[str, int], ...] = ()  # the seated names it matched, and where


class LineRecords(Transformer[Any, Any]):
    """Base of a site's line transformer: every line rule returns a `Record`.

    Inside the LALR parser (no tree is built). `record(kind, payload, *name_tokens)` makes the
    record; the name tokens say which seated names the line matched, so that a cached line is
    used again only while those players are seated.
    """

    def __init__(self, rules: NameRules) -> None:
        super().__init__(visit_tokens=False)
        self._rules = rules

    def record(self, kind: str, payload: Any, *names: Any) -> Record:
        """A line's record; `names` are its tokens of name terminals."""
        rules = self._rules
        matched = []
        for token in names:
            text = str(token)
            start = rules.name_start(token.type, text)  # after `Dealt to ` …
            matched.append((text[start:], token.column - 1 + start))
        return Record(kind, payload, tuple(matched))

    def lines(self, children: list[Record]) -> list[Record]:
        return children


class LineGrammar:
    """A site's grammar built for reading: the line parser, the order of a hand, the words of
    its error messages. One per site and process."""

    def __init__(
        self, name: str, transformer: Callable[[NameRules], LineRecords], *, cython: bool = True
    ) -> None:
        self.name = name
        text = grammar_text(name)
        self.rules = NameRules.from_grammar(text)
        python_lexer, cython_lexer = name_lexers(self.rules)
        plugins: dict[str, Any] = {}
        if cython and cython_lexer is not None:
            import lark_cython

            plugins.update(lark_cython.plugins)
            plugins["ContextualLexer"] = cython_lexer
        else:
            plugins["ContextualLexer"] = python_lexer
        self.backend = "cython" if "LALR_Parser" in plugins else "pure-python"
        self.transformer = transformer(self.rules)
        self.parser = Lark(
            text,
            # `%import .common (…)` is read from the grammar package, beside this grammar.
            source_path=PackageResource(PACKAGE, f"{name}.lark"),
            import_paths=[FromPackageLoader(PACKAGE)],
            parser="lalr",
            lexer="contextual",
            start=["lines", "line"],
            transformer=self.transformer,
            maybe_placeholders=True,
            cache=True,
            _plugins=plugins,
        )
        self.lexer = self.parser.parser.lexer
        self.patterns = LinePatterns(self.parser, self.lexer)
        self.words = descriptions(text)
        self.literals = literal_terminals(self.parser.terminals)
        self.order = Order(text, name)

    def read(self, text: str, start: str, names: Iterable[str]) -> Any:
        """Parse `text` from `start` with `names` seated; raises Lark's errors."""
        self.lexer.set_names(names)
        return self.parser.parse(text, start=start)

    def line_error(
        self, exc: Exception, text: str, source: str, line: int, hand_id: str | None
    ) -> ParseError:
        """The `ParseError` of one line (`text`, at file line `line`) that does not read."""
        return describe_error(
            exc,
            text,
            source,
            line,
            hand_id,
            self.literals,
            list(self.lexer.names),
            self.words,
            self.rules,
        )


class _Tok(str):
    """A token read without Lark (`LinePatterns`): its text, its terminal and its column
    (made inline where a line is read: a function to make one was a call per token)."""

    __slots__ = ("column", "type")

    type: str
    column: int


class _Node:
    """A point of a line in the LALR automaton (the parser's stack after the tokens before
    it), in the tree of every line the `line` rule reads."""

    __slots__ = (
        "children", "end", "ends", "id", "names", "opaque", "plan", "regex", "script", "stack",
    )

    def __init__(self, ident: int, stack: tuple[int, ...], script: tuple[Any, ...]) -> None:
        self.id = ident
        self.stack = stack  # the parser's state stack when the next token is lexed
        self.script = script  # the parser's steps so far: a token index, or (rule, size)
        self.children: dict[str, _Node] = {}  # next terminal -> the point after it
        self.end: tuple[Any, ...] | None = None  # the whole script when the line may end here
        self.opaque = False  # Lark's lexer retypes tokens here: left to Lark
        # Filled by `_compile`: the seated-name terminals tried here, the regex of the rest.
        self.names: tuple[tuple[str, re.Pattern[str] | None, _Node, re.Pattern[str] | None], ...] = ()
        self.regex: re.Pattern[str] | None = None
        # A group that ends the regex -> (the token groups on the way, the point reached,
        # whether the line ends there).
        self.ends: dict[str, tuple[tuple[tuple[str, str], ...], _Node, bool]] = {}
        self.plan: Any = None  # the prepared reduction of a line that ends here (`_plan`)


class LinePatterns:
    """Lines read by regular expressions made from the grammar, with Lark's own parse table,
    lexer order and callbacks: what the LALR parser would give, without it.

    At start-up every line the `line` rule reads is walked through the grammar's LALR
    automaton, token by token (it is a finite tree: the line rules are not recursive). Each
    point of that tree knows the parser's stack. From a point, one regular expression
    (compiled when the point is first reached) reads the next `TOKENS_PER_REGEX` tokens, up
    to the line's end or a player name: at each token the terminals the contextual lexer
    tries in that parser state, in Lark's order, as one atomic alternation (the first that
    matches is the token, as in Lark's scanner), then the line's end, the next point, or a
    failure where the parser would reject that terminal. Player names are
    found as the name-aware lexer finds them (`razz.parser.lexer`): the seated names, longest
    first, where the parser accepts a name and what follows lexes. The tokens are then
    reduced by the parser's own steps for that path, with Lark's callbacks (the site's
    transformer), so the record is the one Lark builds.

    `read` gives None for anything else (a line that does not match, a state where Lark's
    lexer would retype a token): such a line goes to Lark, which is also the one that says
    what is wrong with a line.
    """

    MAX_TOKENS = 16
    # Tokens one regex reads before the next one goes on: every line but the header is one
    # or two tokens between names, and a regex over more grows (and takes to compile) with
    # every path the grammar allows (the header's optional parts).
    TOKENS_PER_REGEX = 1
    # Rests of lines kept per generation (`_remember_tail`). Most rests never come back
    # (cards, stacks: 47,082 kept for 5,000 simulated hands, 15 MB, that grew on with every
    # hand); the ones that do (actions, one card dealt) stay young by being found.
    TAILS = 15_000

    def __init__(self, parser: Lark, lexer: Any) -> None:
        table = _parse_table(parser)
        self._states = table.states
        self._end_state = table.end_states["line"]
        self._callbacks = parser.parser.parser_conf.callbacks
        self._terminals = {t.name: t for t in parser.terminals}
        self._flags = parser.options.g_regex_flags
        self._rules: NameRules = lexer.rules
        self._ignore = set(parser.lexer_conf.ignore)
        # Terminals with callbacks of their own (the lexer's or the parser's): left to Lark.
        self._token_callbacks = set(parser.lexer_conf.callbacks) | {
            k for k in self._callbacks if isinstance(k, str)
        }
        self._count = 0
        self._groups = 0
        self.root = self._walk((table.start_states["line"],), ())
        self._compiled: set[int] = set()
        self._by_first: dict[str, tuple[str, ...]] = {}  # first character -> names, longest first
        self._known: set[str] = set()
        # What follows a name at the start of a line, read before: (name terminal, text
        # before the name, rest of the line) -> (kind, the payload after the name). The same
        # rest reads the same after any name: "Hero: folds" and "Bob: folds". Two
        # generations of at most `TAILS` each (`_remember_tail`): memory stays flat.
        self._tails: dict[tuple[str, str, str], tuple[str, tuple[Any, ...]]] = {}
        self._old_tails: dict[tuple[str, str, str], tuple[str, tuple[Any, ...]]] = {}

    # ---------------------------------------------------------------- the tree of lines
    def _walk(self, stack: tuple[int, ...], script: tuple[Any, ...]) -> _Node:
        node = _Node(self._count, stack, script)
        self._count += 1
        actions = self._states[stack[-1]]
        if "$END" in actions:
            done = self._feed(stack, script, "$END", len(script))
            if done is not None:
                node.end = done[1]
        if len(script) < 4 * self.MAX_TOKENS:
            tokens = sum(1 for step in script if isinstance(step, int))
            if tokens < self.MAX_TOKENS:
                for kind in actions:
                    if not kind.isupper() or kind == "$END":
                        continue
                    if kind not in self._terminals and kind not in self._rules.matched:
                        continue
                    fed = self._feed(stack, script, kind, tokens)
                    if fed is not None:
                        node.children[kind] = self._walk(*fed)
        node.opaque = self._retypes(stack[-1])
        node.names = self._name_steps(node)
        return node

    def _name_steps(self, node: _Node) -> tuple[Any, ...]:
        """The name terminals the name-aware lexer tries at `node`, in its order: (terminal,
        text before the name, the point after it, what must follow the name: the pattern's
        text, compiled by `_compile`)."""
        states, steps = self._states, []
        for kind, prefix in self._rules.matched.items():
            if kind not in states[node.stack[-1]]:
                continue
            after = state_after(states, list(node.stack), kind)
            if after is None:
                continue
            follow = [self._terminals[t].pattern.to_regexp() for t in states[after] if t in self._terminals]
            # Compiled when the point is first read (`_compile`): start-up stays small.
            pattern = "|".join(f"(?:{p})" for p in follow) if follow else None
            steps.append((kind, prefix, node.children.get(kind), pattern))
        return tuple(steps)

    def _feed(
        self, stack: tuple[int, ...], script: tuple[Any, ...], kind: str, index: int
    ) -> tuple[tuple[int, ...], tuple[Any, ...]] | None:
        """The stack and script after the parser is fed terminal `kind` (token `index`), as
        `lark.parsers.lalr_parser_state.ParserState.feed_token` does; None if rejected."""
        states, out, steps = self._states, list(stack), list(script)
        while True:
            action = states[out[-1]].get(kind)
            if action is None:
                return None
            if action[0] is Shift:
                if kind == "$END":
                    return None
                out.append(action[1])
                steps.append(index)
                return tuple(out), tuple(steps)
            rule = action[1]
            size = len(rule.expansion)
            if size:
                del out[-size:]
            steps.append((rule, size))
            goto = states[out[-1]].get(rule.origin.name)
            if goto is None or goto[0] is not Shift:
                return None
            out.append(goto[1])
            if kind == "$END" and out[-1] == self._end_state:
                return tuple(out), tuple(steps)

    def _order(self, state: int) -> list[Any]:
        """The terminals Lark's contextual lexer tries in `state`, in its order."""
        accepts = set(self._states[state]) | self._ignore
        found = [self._terminals[k] for k in accepts if k in self._terminals]
        found.sort(key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name))
        return found

    def _retypes(self, state: int) -> bool:
        """Whether Lark's lexer in `state` may give a token another type than the terminal
        that matched (a literal that a regex terminal also matches: `_create_unless`)."""
        found = self._order(state)
        literals = [t for t in found if t.pattern.type == "str"]
        if self._ignore or any(t.name in self._token_callbacks for t in found):
            return True
        if not literals:
            return False
        for regex in (t for t in found if t.pattern.type == "re"):
            pattern = re.compile(regex.pattern.to_regexp(), self._flags)
            for literal in literals:
                if literal.priority != regex.priority:
                    continue
                m = pattern.match(literal.pattern.value)
                if m is not None and m.group(0) == literal.pattern.value:
                    return True
        return False

    # -------------------------------------------------------------- regular expressions
    def _compile(self, node: _Node) -> None:
        """The name terminals tried at `node`, and the regex of the rest up to a name or the
        end, with what each of its ends means."""
        self._compiled.add(node.id)
        node.names = tuple(
            (kind, prefix, child, re.compile(follow, self._flags) if follow else None)
            for kind, prefix, child, follow in node.names
        )
        ends: dict[str, tuple[tuple[tuple[str, str], ...], _Node, bool]] = {}
        body = self._rest(node, (), ends, top=True)
        node.ends = ends
        node.regex = re.compile(body, self._flags) if ends else None

    def _group(self) -> str:
        self._groups += 1
        return f"g{self._groups}"

    def _rest(
        self,
        node: _Node,
        path: tuple[tuple[str, str], ...],
        ends: dict[str, tuple[tuple[tuple[str, str], ...], _Node, bool]],
        top: bool = False,
    ) -> str:
        """The regex of the line from `node`: its end, a name (Python takes over), or one
        token as Lark's lexer would lex it, then the rest after that token."""
        parts = []
        if node.end is not None:
            key = self._group()
            ends[key] = (path, node, True)
            parts.append(rf"\Z(?P<{key}>)")
        if not top and (node.names or len(path) >= self.TOKENS_PER_REGEX) and not self._linear(node):
            key = self._group()
            # A name may come here, or the regex is long enough: the next regex goes on.
            ends[key] = (path, node, False)
            parts.append(f"(?P<{key}>)")
            return "|".join(parts)
        if node.opaque:
            return "|".join(parts) if parts else "(?!)"
        order = self._order(node.stack[-1])
        if order:
            groups = [(self._group(), t) for t in order]
            scan = "(?>" + "|".join(f"(?P<{g}>{t.pattern.to_regexp()})" for g, t in groups) + ")"
            chain = "(?!)"
            for g, t in reversed(groups):
                child = node.children.get(t.name)
                rest = "(?!)" if child is None else self._rest(child, (*path, (g, t.name)), ends)
                chain = f"(?({g})(?:{rest})|{chain})"
            parts.append(scan + chain)
        return "|".join(f"(?:{p})" for p in parts) if parts else "(?!)"

    def _linear(self, node: _Node) -> bool:
        """Whether one terminal only may come at `node`, and the line goes on after it: the
        regex reads on through it, as the next regex would (one match, not two: a header's
        ten tokens are four matches, a seat line's two are one)."""
        if node.end is not None or node.names or node.opaque:
            return False
        order = self._order(node.stack[-1])
        return len(order) == 1 and order[0].name in node.children

    # --------------------------------------------------------------------- reading
    def set_names(self, names: Iterable[str]) -> None:
        """The players seated in the hand being read. Names added to the last ones (a seat
        line read) go into their places; any other change makes the lists again."""
        new = set(names)
        new.discard("")
        known = self._known
        if new == known:
            return
        if known <= new:
            by_first = self._by_first
        else:
            by_first = self._by_first = {}
        for name in new - known if known <= new else new:
            same = by_first.get(name[0], ())
            # Longest first, as the lexer tries them: `x [Ah Ks]` before `x`.
            by_first[name[0]] = tuple(sorted((*same, name), key=len, reverse=True))
        self._known = new

    @property
    def names(self) -> set[str]:
        """The players seated: those given (`set_names`) and those of the seat lines read
        since (the set itself, which grows as they are read)."""
        return self._known

    def _seat(self, name: str) -> None:
        """A seat line read seats `name`, as it does in Lark's lexer: `set_names` with it
        added, without making the set of names again."""
        if name and name not in self._known:
            self._known.add(name)
            same = self._by_first.get(name[0], ())
            self._by_first[name[0]] = tuple(sorted((*same, name), key=len, reverse=True))

    def _name(self, node: _Node, line: str, pos: int) -> tuple[Any, ...] | None:
        """The name token the name-aware lexer makes at `pos`: (terminal, the name, its end,
        the next point, what followed the name when the same rest of a line was read before
        after another name, else None).

        A rest read before after a name of the same terminal lexes after it (the lexer's
        check of what follows the name), so it is looked up first, at the start of a line."""
        by_first = self._by_first
        tails = self._tails if not pos else None
        for kind, prefix, child, follow in node.names:
            at = pos
            if prefix is not None:
                m = prefix.match(line, pos)
                if m is None:
                    continue
                at = m.end()
            names = by_first.get(line[at : at + 1])
            if not names or follow is None:
                continue
            for name in names:
                if not line.startswith(name, at):
                    continue
                stop = at + len(name)
                if tails is not None:
                    key = (kind, line[:at], line[stop:])
                    known = tails.get(key)
                    if known is None:
                        known = self._old_tails.get(key)
                        if known is not None:  # found again: it goes on to the young ones
                            self._keep_tail(key, known)
                    if known is not None:
                        return kind, name, stop, child, known
                if follow.match(line, stop):
                    return kind, name, stop, child, None
        return None

    def read(self, line: str) -> Record | None:
        """The record of one line (its text with its "\\n"), or None: Lark decides."""
        node = self.root
        pos, tokens = 0, []
        size = len(line)
        while True:
            if node.regex is None and node.id not in self._compiled:
                self._compile(node)
            if node.names and pos < size and self._by_first:
                found = self._name(node, line, pos)
                if found is not None:
                    kind, name, stop, child, known = found
                    if child is None:
                        return None
                    if known is not None:  # read before after another name: it lexes
                        at = stop - len(name)
                        return Record(known[0], (name, *known[1]), ((name, at),))
                    token = _Tok(line[pos:stop])
                    token.type, token.column = kind, pos + 1
                    tokens.append(token)
                    node, pos = child, stop
                    continue
            regex = node.regex
            m = regex.match(line, pos) if regex is not None else None
            if m is None:
                return None
            path, node, done = node.ends[m.lastgroup]  # type: ignore[index]
            for group, kind in path:
                token = _Tok(m.group(group))
                token.type, token.column = kind, m.start(group) + 1
                tokens.append(token)
            pos = m.end()
            if done:
                try:
                    record = self._reduce(node, tokens)
                except (LarkError, ValueError):
                    # A callback refused the line (a date no calendar has, an amount that is
                    # none): Lark reads it again and says so, as for any line.
                    return None
                if tokens[0].type in self._rules.matched:
                    self._remember_tail(tokens[0], line, record)
                return record

    def _reduce(self, leaf: _Node, tokens: list[_Tok]) -> Record:
        """The record of a line read into these tokens: the parser's steps for their path,
        with Lark's callbacks (prepared once per path: `_plan`)."""
        plan = leaf.plan
        if plan is None:
            plan = leaf.plan = self._plan(leaf)
        sources, callbacks, direct = plan
        for index, terminal in sources:  # the names a seat line brings, as the lexer would
            self._seat(self._rules.source_name(terminal, str(tokens[index])))
        if direct is not None:  # one callback of every token, in order (most lines)
            return direct(tokens)
        return _run(callbacks, tokens)

    def _plan(self, leaf: _Node) -> tuple[tuple[tuple[int, str], ...], Any, Any]:
        """A path's reduction, prepared: (the tokens that give names, the tree of callbacks
        the parser's steps make: `(callback, children)`, a child a token index or a tree,
        and the one callback to call on the tokens as they are when that is all the tree
        does, else None). A rule that only passes on its single child (`?line`, Lark's
        `ExpandSingleChild`) is left out of the tree: it would return that child."""
        callbacks = self._callbacks
        values: list[Any] = []
        for step in leaf.end:  # type: ignore[union-attr]
            if step.__class__ is int:
                values.append(step)
                continue
            rule, size = step
            children = values[-size:] if size else []
            if size:
                del values[-size:]
            callback = callbacks[rule]
            if size == 1 and isinstance(callback, ExpandSingleChild):
                values.append(children[0])
            else:
                values.append((callbacks[rule], tuple(children)))
        kinds = self._token_kinds(leaf)
        sources = tuple(
            (index, kind) for index, kind in enumerate(kinds) if kind in self._rules.sources
        )
        tree = values[-1]
        if tree.__class__ is int:  # a line of one token, passed on as it is
            tree = (lambda children: children[0], (tree,))
        direct = tree[0] if tree[1] == tuple(range(len(kinds))) else None
        return sources, tree, direct

    def _token_kinds(self, leaf: _Node) -> list[str]:
        """The terminals of the tokens on the path to `leaf`, in order."""
        kinds: list[str] = []

        def find(node: _Node, path: list[str]) -> bool:
            if node is leaf:
                kinds.extend(path)
                return True
            return any(find(child, [*path, kind]) for kind, child in node.children.items())

        find(self.root, [])
        return kinds

    def _remember_tail(self, first: _Tok, line: str, record: Record) -> None:
        """Keep what followed the name, when the record is the name and what follows it."""
        if not isinstance(record, Record) or len(record.names) != 1:
            return
        name, at = record.names[0]
        payload = record.payload
        if not isinstance(payload, tuple) or not payload or payload[0] != name:
            return
        for i in range(1, len(payload)):
            x = payload[i]
            if isinstance(x, str) and name in x:
                return
        self._keep_tail((first.type, line[:at], line[at + len(name) :]), (record.kind, payload[1:]))

    def _keep_tail(self, key: tuple[str, str, str], known: tuple[str, tuple[Any, ...]]) -> None:
        """Keep a rest of a line among the young ones; when they are `TAILS`, they become
        the old ones and the old ones go. A rest found among the old ones comes back here
        (`_name`): the rests that come back stay (a plain clear at 10,000 lost a fifth of
        the hits, 40,157 -> 32,454 over 5,000 simulated hands; two generations of 15,000
        lose 3%: 38,946)."""
        if len(self._tails) >= self.TAILS:
            self._old_tails = self._tails
            self._tails = {}
        self._tails[key] = known


def _run(plan: tuple[Any, tuple[Any, ...]], tokens: list[_Tok]) -> Any:
    """Call a prepared tree of callbacks on a line's tokens (`LinePatterns._plan`)."""
    callback, children = plan
    return callback([tokens[c] if c.__class__ is int else _run(c, tokens) for c in children])


def _parse_table(parser: Lark) -> Any:
    """The LALR parse table of a built parser (Python or Cython build)."""
    lalr = parser.parser.parser
    inner = getattr(lalr, "parser", None)
    table = getattr(inner, "parse_table", None) or getattr(lalr, "_parse_table", None)
    if table is None:
        raise TypeError("no LALR parse table in this parser")
    return table


class Order:
    """The order of a hand's lines (the grammar's `hand` rule): a regular expression over one
    letter per kind, and an LALR parser of the rule for the error messages.

    The regular expression is made from the rule as the grammar writes it (`x*`, `x?`, `a |
    b`: the rule must not be recursive, `hand` is a regular language over the kinds), and
    kept beside Lark's cache of the built parsers, so that a new process makes it only once.
    """

    def __init__(self, grammar: str, name: str) -> None:
        self._grammar, self._name = grammar, name
        self.words = descriptions(grammar)
        built = _load_order(grammar)
        if built is None:
            built = _make_order(grammar, name)
            _save_order(grammar, built)
        self.letter: dict[str, str] = built["letter"]
        self.regex = re.compile(built["regex"])
        self._lark_parser: Lark | None = None

    @property
    def _lark(self) -> Lark:
        """The LALR parser of `hand`, for the error messages (built on the first error)."""
        if self._lark_parser is None:
            self._lark_parser = Lark(
                self._grammar,
                source_path=PackageResource(PACKAGE, f"{self._name}.lark"),
                import_paths=[FromPackageLoader(PACKAGE)],
                parser="lalr",
                lexer=_Kinds,
                start="hand",
                cache=True,
            )
        return self._lark_parser

    def check(self, kinds: Sequence[str]) -> bool:
        """Whether lines of these kinds, in this order, make a hand."""
        return self.regex.fullmatch("".join(map(self.letter.__getitem__, kinds))) is not None

    def expected(self, kinds: Sequence[str]) -> str:
        """What may follow lines of these kinds, in the grammar's words ("" if they are
        already out of order)."""
        index, message = self.error(kinds)
        if index < len(kinds) or "; expected " not in message:
            return ""
        return message.split("; expected ", 1)[1]

    def error(self, kinds: Sequence[str]) -> tuple[int, str]:
        """(index of the line, message) where lines of these kinds stop making a hand; the
        index is `len(kinds)` when the hand ends too early."""
        tokens = [Token(KIND_PREFIX + k.upper(), k) for k in kinds]
        try:
            self._lark.parse(_TokenList(tokens))
        except UnexpectedInput as exc:
            token = getattr(exc, "token", None)
            expected = sorted(
                self.words.get(t, t) for t in (getattr(exc, "expected", None) or ())
            )
            wanted = _join(expected)
            if token is None or token.type == "$END":
                return len(kinds), f"the hand ends too early; expected {wanted}"
            index = next(i for i, t in enumerate(tokens) if t is token)
            what = self.words.get(token.type, token.type)
            return index, f"{what} cannot come here; expected {wanted}"
        return len(kinds), "the lines do not make a hand"  # the regex said no: never here

def _order_path(grammar: str) -> Path:
    digest = hashlib.sha256((grammar + _ORDER_VERSION).encode()).hexdigest()[:32]
    try:
        user = getpass.getuser()
    except Exception:  # no user name: any name will do for a cache file
        user = "unknown"
    return Path(tempfile.gettempdir()) / f".razz_order_{user}_{digest}.json"


_ORDER_VERSION = "1"  # of the way the regular expression is made


def _load_order(grammar: str) -> dict[str, Any] | None:
    try:
        data = json.loads(_order_path(grammar).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and {"letter", "regex"} <= data.keys() else None


def _save_order(grammar: str, built: dict[str, Any]) -> None:
    path = _order_path(grammar)
    try:  # written whole, then renamed: a reader never sees half a file
        partial = path.with_name(f"{path.name}.{os.getpid()}")
        partial.write_text(json.dumps(built), encoding="utf-8")
        partial.replace(path)
    except OSError:
        pass  # no cache: the next process makes it again


def _make_order(grammar: str, name: str) -> dict[str, Any]:
    """The letters of the kinds and the regular expression of `hand`, from the rule as the
    grammar writes it."""
    defs, _ = load_grammar(
        grammar, PackageResource(PACKAGE, f"{name}.lark"), [FromPackageLoader(PACKAGE)], False
    )
    rules = {d[0]: d[2] for d in defs.rule_defs}
    kinds = sorted(
        name
        for declared in re.findall(r"^%declare (.*)$", grammar, re.M)
        for name in declared.split()
        if name.startswith(KIND_PREFIX)
    )
    # One character per kind, outside anything a regular expression treats specially.
    letter = {k[len(KIND_PREFIX) :].lower(): chr(0x100 + i) for i, k in enumerate(kinds)}

    def regex(rule: str, seen: tuple[str, ...]) -> str:
        if rule in seen:
            raise ValueError(f"the order rule {rule!r} is recursive: it must be a regular one")
        return tree(rules[rule], (*seen, rule))

    def tree(node: Any, seen: tuple[str, ...]) -> str:
        data = getattr(node, "data", None)
        if data == "expansions":
            parts = [tree(c, seen) for c in node.children]
            if all(len(p) == 1 for p in parts):  # single kinds: a character class
                return "[" + "".join(parts) + "]"
            return "(?:" + "|".join(parts) + ")"
        if data == "expansion":
            return "".join(tree(c, seen) for c in node.children)
        if data == "expr":
            return "(?:" + tree(node.children[0], seen) + ")" + str(node.children[1])
        if data == "maybe":
            return "(?:" + tree(node.children[0], seen) + ")?"
        if data == "value":
            symbol = node.children[0]
            if symbol.is_term:
                return letter[symbol.name[len(KIND_PREFIX) :].lower()]
            return regex(symbol.name, seen)
        raise ValueError(f"unexpected {data!r} in the order rules")

    return {"letter": letter, "regex": regex("hand", ())}


def _join(words: list[str]) -> str:
    if len(words) > 6:
        words = [*words[:6], f"… ({len(words) - 6} more)"]
    return words[0] if len(words) == 1 else "one of: " + ", ".join(words)


class _TokenList(list[Token]):
    """The kinds of a hand's lines, as the input of the order parser."""


class _Kinds(Lexer):
    """The order parser's lexer: the tokens are the kinds of the lines, already made."""

    def __init__(self, conf: Any) -> None:
        pass

    def lex(self, data: Any) -> Iterator[Token]:  # type: ignore[override]
        return iter(data)


# ------------------------------------------------------------------ one file's lines


class FileLines:
    """The lines of one file: each line text is read once while the same players are seated.

    `records(lines)` gives the record of every line of a hand (None for a line that does not
    read): the lines read before come from the cache if they still read the same with this
    hand's players; the others are read together in one call of the parser.

    The cache is maps of a line's text, so that a hand's lines are looked up in C (`map`),
    not one by one in Python: its record; the name a seat line seats; and, for a line whose
    reading may depend on who is seated, the names it matched, or whether it is about a
    player nobody seated. Most cached lines (streets, the summary's marker) need nothing
    more, and a line that matched names reads the same while they are all seated and no
    seated name is the start of another (`_stale`).
    """

    MAX = 50_000  # cached lines kept per file; real files hold a few thousand distinct lines

    def __init__(
        self,
        grammar: LineGrammar,
        seat_kind: str,
        unseated_kinds: frozenset[str],
    ) -> None:
        self.grammar = grammar
        self._seat_kind = seat_kind  # the kind of a seat line: its payload starts with the name
        self._unseated = unseated_kinds  # kinds of lines about a player nobody seated
        self._records: dict[str, Record] = {}  # line text -> its record
        self._seats: dict[str, str] = {}  # seat line text -> the name it seats
        self._needs: dict[str, frozenset[str]] = {}  # line text -> the names it matched
        self._unnamed: set[str] = set()  # texts of lines about a player nobody seated
        self.memo: dict[Any, Any] = {}  # the site's own per-file memory (amounts, events …)

    def records(self, lines: Sequence[str]) -> list[Record | None]:
        """The record of each line (its text with its "\\n"), None where a line does not read."""
        out: list[Record | None] = list(map(self._records.get, lines))
        todo = list(compress(range(len(out)), map(not_, out)))  # a Record is never empty
        known_at: dict[int, int] = {}
        # Seat lines come first: the names of the cached ones, then those read.
        cached_names = cast("list[str]", list(filter(_is_name, map(self._seats.get, lines))))
        self._read(lines, todo, out, cached_names, known_at)
        names = self._names(out) if todo else cached_names
        seated = frozenset(names)
        unseated = self._unseated
        # Every line reads with every player of the hand seated: a line read before a seat
        # line (a hand out of order) is read again if names could change how it reads.
        stale = [
            i
            for i, known in known_at.items()
            if known < len(names)
            and ((r := out[i]) is None or r.names or r.kind in unseated)
        ]
        if len(todo) < len(lines):
            stale.extend(self._stale(lines, out, names, seated))
        if stale:
            self._read(lines, sorted(stale), out, names, known_at)
        # Kept with the names it matched: while they are seated, it is used as it is.
        self._keep(lines, out, known_at)
        return out

    def _stale(
        self,
        lines: Sequence[str],
        out: list[Record | None],
        names: list[str],
        seated: frozenset[str],
    ) -> list[int]:
        """The cached lines of a hand that would not read as they did with these players
        seated (`_still_valid`).

        Checked in C for the whole hand first: every name the cached lines matched is
        seated, and no seated name is the start of another (sorted, a name that starts
        another starts the one after it). Only a hand that fails that is checked line by
        line (5,000 simulated hands: 20 lines a hand were checked one by one in Python)."""
        found = []
        unnamed = self._unnamed
        if unnamed and names:
            starts = tuple(names)
            for i in compress(range(len(lines)), map(unnamed.__contains__, lines)):
                if lines[i].startswith(starts):  # it would be about that player now
                    found.append(i)
        needs = list(map(self._needs.get, lines))
        ordered = sorted(names)
        if all(map(seated.issuperset, filter(None, needs))) and not any(
            map(str.startswith, ordered[1:], ordered[:-1])
        ):
            return found
        longer = {n: [m for m in names if m != n and m.startswith(n)] for n in names}
        for i in compress(range(len(needs)), needs):
            if not _still_valid(out[i], lines[i], seated, longer):  # type: ignore[arg-type]
                found.append(i)
        return found

    def _names(self, records: Sequence[Record | None]) -> list[str]:
        kind = self._seat_kind
        return [r.payload[0] for r in records if r is not None and r.kind == kind]

    def _read(
        self,
        lines: Sequence[str],
        todo: list[int],
        out: list[Record | None],
        names: list[str],
        known_at: dict[int, int],
    ) -> None:
        """Read the lines `todo`: flat ones directly, the others in one call of the parser.

        `known_at` gets how many names were known when each line was read."""
        if not todo:
            return
        grammar = self.grammar
        flat = grammar.patterns
        flat.set_names(names)  # a seat line read adds its name, as the lexer does
        seated = flat.names
        rest = []
        for i in todo:
            known_at[i] = len(seated)
            record = flat.read(lines[i])
            if record is None:
                rest.append(i)
            else:
                out[i] = record
        if not rest:
            return
        names = list(seated)
        for i in rest:
            known_at[i] = len(names)
        try:
            read = grammar.read("".join(lines[i] for i in rest), "lines", names)
        except (LarkError, ValueError):
            read = None
        if read is not None and len(read) == len(rest):
            for i, record in zip(rest, read, strict=True):
                out[i] = record
            return
        for i in rest:  # one at a time, to find the lines that do not read
            try:
                record = grammar.read(lines[i], "line", names)
            except (LarkError, ValueError):
                out[i] = None
                continue
            out[i] = record
            if record.kind == self._seat_kind:
                names.append(record.payload[0])

    def _keep(
        self, lines: Sequence[str], out: Sequence[Record | None], read: Iterable[int]
    ) -> None:
        """Keep the lines `read` that read, each with its record: one call a hand, not one
        a line (~25 a hand; callgrind, 825 simulated hands: 2.116 M -> 2.105 M
        instructions a hand)."""
        records, seats, needs, unnamed = self._records, self._seats, self._needs, self._unnamed
        seat_kind, unseated = self._seat_kind, self._unseated
        for i in read:
            record = out[i]
            if record is None:
                continue
            if len(records) >= self.MAX:
                records.clear()  # keep memory flat on huge files
                seats.clear()
                needs.clear()
                unnamed.clear()
                self.memo.clear()
            text = lines[i]
            known = text in records  # read again (stale): its old entries go
            records[text] = record
            kind = record.kind
            if kind == seat_kind:
                seats[text] = record.payload[0]
            elif known:
                seats.pop(text, None)
            if record.names:
                needs[text] = frozenset([name for name, _ in record.names])
            elif known:
                needs.pop(text, None)
            if kind in unseated and not record.names:
                unnamed.add(text)
            elif known:
                unnamed.discard(text)


_is_name = partial(is_not, None)  # a seat line's name, in a map of line texts to names


def _still_valid(
    record: Record, text: str, seated: frozenset[str], longer: dict[str, list[str]]
) -> bool:
    """Whether a line read before, which matched names, reads the same with these players
    seated: every name it matched is seated, with no seated longer name at the same place
    (the lexer would try that one first)."""
    for name, at in record.names:
        if name not in seated:
            return False
        for other in longer[name]:
            if text.startswith(other, at):
                return False
    return True
