"""Every rejection code the server can answer, found in the source, with what it means.

A code is stable snake_case, decided in one of three places: the command service
(the envelope: ids, size, reply stream), the match lifecycle (`domain/match.py`,
`domain/kernel.py`) and each game's rules (`domain/games/<name>/`). They are collected
by reading the source, not listed by hand, so a new code cannot be left out of
docs/asyncapi.yaml. The meaning is the line in the game's README when it has one, else
the sentence the referee says (its placeholders shown as `{name}`).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import msgspec

CODE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]{3,}")
# Calls that carry (code, message): the exception itself, and games' own refusal values.
CARRIERS = {"Rejected", "Refusal"}
# A README line naming a code: "- `code` — meaning", "- `code`: meaning", "| `code` | meaning |".
README_LINE = re.compile(r"^\s*[-|]\s*`([a-z0-9_]+)`\s*(?:[:—–|-])\s*(.+?)\s*\|?\s*$")

# What the command service's codes mean, for those its source holds (`service_codes`).
SERVICE_MEANINGS = {
    "malformed_command": "The entry's `c` field is not a CommandMessage (not JSON, unknown "
    "or missing fields, wrong types), or the move is not valid JSON. Answered only when "
    "`reply_to` can still be read and names a reply stream; else a dead letter.",
    "bad_reply_to": "`reply_to` names no reply stream, or too long a one (see "
    "CommandMessage.reply_to). Never "
    "answered: the service writes nowhere else. The command is kept as a dead letter.",
    "bad_id": "`match_id` or `command_id` breaks the id rule (see CommandMessage).",
    "too_large": "The command is larger than the service accepts.",
    "bad_field": "A field of the command is outside its limits (too long a name, too many "
    "options).",
    "command_id_reused": "This `command_id` was already used in this match for a different "
    "command; a resend must repeat the command exactly.",
    "busy": "The match changed under this command more than 5 times in a row (other "
    "workers appending); nothing was appended: send it again with the same command_id.",
    "internal_error": "A bug in the referee; nothing was appended. Report it.",
    "command_failed": "The service failed on this command each time it was delivered (5 "
    "times, 30 s apart: its match's data could not be read or written); the command was "
    "set aside in the partition's dead-letter stream for an operator.",
}


class Code(msgspec.Struct, frozen=True):
    code: str
    meaning: str


class Found(msgspec.Struct):
    """A code seen in the source, with the sentences it is sent with."""

    code: str
    messages: list[str] = []


def _root() -> Path:
    return Path(__file__).resolve().parents[2]


def _template(node: ast.expr | None) -> str:
    """A message as a reader sees it: f-string holes as `{name}`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = []
        for part in node.values:
            if isinstance(part, ast.Constant):
                parts.append(str(part.value))
            elif isinstance(part, ast.FormattedValue):
                parts.append("{" + _hole(part.value) + "}")
        return "".join(parts)
    return ""


def _hole(node: ast.expr) -> str:
    match node:
        case ast.Name(id=name) | ast.Attribute(attr=name):
            return name
        case ast.Call(func=func):
            return _hole(func)
        case ast.Subscript(value=value):
            return _hole(value)
        case ast.BinOp(left=left, op=op, right=right):
            return ast.unparse(ast.BinOp(left=ast.Name(_hole(left)), op=op, right=right))
        case _:
            return "..."


def _is_code(node: ast.expr | None) -> str | None:
    if (
        isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and CODE.fullmatch(node.value)
    ):
        return node.value
    return None


def _name(func: ast.expr) -> str:
    match func:
        case ast.Name(id=name) | ast.Attribute(attr=name):
            return name
        case _:
            return ""


def scan(source: str) -> Iterator[tuple[str, str]]:
    """(code, message) pairs decided in one module's source."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _name(node.func) in CARRIERS and node.args:
            code = _is_code(node.args[0])
            if code is not None:
                yield code, _template(node.args[1] if len(node.args) > 1 else None)
        elif isinstance(node, ast.Tuple) and len(node.elts) == 2:
            # A problem returned as a pair, raised later with `Rejected(*problem)`.
            code = _is_code(node.elts[0])
            if (
                code is not None
                and "_" in code
                and isinstance(node.elts[1], ast.JoinedStr | ast.Constant)
            ):
                message = _template(node.elts[1])
                if message and " " in message:
                    yield code, message
        elif isinstance(node, ast.FunctionDef):
            yield from _indirect(node)


def _indirect(func: ast.FunctionDef) -> Iterator[tuple[str, str]]:
    """`Rejected(code, ...)` where `code` is a local name: the constants assigned to it."""
    raised: dict[str, str] = {}
    for node in ast.walk(func):
        if isinstance(node, ast.Call) and _name(node.func) == "Rejected" and node.args:
            first = node.args[0]
            if isinstance(first, ast.Name):
                raised[first.id] = _template(node.args[1] if len(node.args) > 1 else None)
    if not raised:
        return
    for node in ast.walk(func):
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            names = target.elts if isinstance(target, ast.Tuple) else [target]
            for i, name in enumerate(names):
                if isinstance(name, ast.Name) and name.id in raised:
                    for value in _values_at(node.value, i if isinstance(target, ast.Tuple) else -1):
                        code = _is_code(value)
                        if code is not None:
                            yield code, raised[name.id]


def _values_at(node: ast.expr, index: int) -> Iterator[ast.expr]:
    """The expressions an assignment may give position `index` (-1: the whole value)."""
    if isinstance(node, ast.IfExp):
        yield from _values_at(node.body, index)
        yield from _values_at(node.orelse, index)
    elif index < 0:
        yield node
    elif isinstance(node, ast.Tuple) and index < len(node.elts):
        yield node.elts[index]


def collect(paths: list[Path]) -> dict[str, Found]:
    found: dict[str, Found] = {}
    for path in sorted(paths):
        for code, message in scan(path.read_text()):
            entry = found.setdefault(code, Found(code))
            if message and message not in entry.messages:
                entry.messages.append(message)
    return found


def readme_meanings(readme: Path) -> dict[str, str]:
    """The codes a game's README explains, under its "Rejection..." heading."""
    if not readme.exists():
        return {}
    out: dict[str, str] = {}
    inside = False
    for line in readme.read_text().splitlines():
        if line.startswith("#"):
            inside = "reject" in line.lower()
            continue
        hit = README_LINE.match(line) if inside else None
        if hit:
            out[hit.group(1)] = hit.group(2).strip().rstrip("|").strip()
    return out


def _meaning(entry: Found, readme: dict[str, str]) -> str:
    if entry.code in readme:
        text = readme[entry.code]
        return text[0].upper() + text[1:]
    said = entry.messages[:3]
    if not said:
        return "(no sentence in the source)"
    return "Said as: " + " / ".join(f'"{m}"' for m in said)


def _codes(found: dict[str, Found], readme: dict[str, str]) -> list[Code]:
    return [Code(code, _meaning(found[code], readme)) for code in sorted(found)]


def match_codes() -> list[Code]:
    """The lifecycle's codes: the match aggregate, its clocks and the game registry."""
    domain = _root() / "domain"
    return _codes(collect([domain / "match.py", domain / "kernel.py", domain / "clock.py"]), {})


def game_codes(package: str) -> list[Code]:
    """One game's codes, from its folder (`domain.games.chicken` -> domain/games/chicken)."""
    folder = _root().joinpath(*package.split("."))
    found = collect(list(folder.rglob("*.py")))
    return _codes(found, readme_meanings(folder / "README.md"))


def _service_scan(source: str) -> Iterator[tuple[str, str]]:
    """(code, message) pairs the command service answers in one module's source."""
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        said = {kw.arg: kw.value for kw in node.keywords}
        code = _is_code(said.get("code"))
        if code is not None:
            yield code, _template(said.get("message"))
        elif _name(node.func) in CARRIERS and node.args:
            code = _is_code(node.args[0])
            if code is not None:
                yield code, _template(node.args[1] if len(node.args) > 1 else None)
        elif "reject" in _name(node.func):
            # A helper taking (..., "code", "message", ...).
            for i, arg in enumerate(node.args):
                code = _is_code(arg)
                if code is not None:
                    after = node.args[i + 1] if i + 1 < len(node.args) else None
                    yield code, _template(after)


def service_codes() -> list[Code]:
    """The command service's codes, found in its source; the meaning from the table above,
    else the sentence the service says."""
    found: dict[str, Found] = {}
    for path in sorted((_root() / "services").rglob("*.py")):
        for code, message in _service_scan(path.read_text()):
            entry = found.setdefault(code, Found(code))
            if message and message not in entry.messages:
                entry.messages.append(message)
    return _codes(found, SERVICE_MEANINGS)
