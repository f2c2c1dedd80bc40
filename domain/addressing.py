"""A sentence spoken to its reader: the games write "You" where the reader's name would
stand, and the verb after it as they would after a name ("Ann plays first"). Here the
verb agrees ("You play first", "You were dealt"), "the zone of You" is "your zone", and
a "You" inside a sentence is written small ("stole a card from you"), once for every
game instead of in each."""

from __future__ import annotations

import re

_IRREGULAR = {"was": "were", "has": "have", "is": "are", "does": "do", "goes": "go"}
# After these, a "You" opens a clause and is its subject; after a verb or a preposition
# it is an object ("gave You cards"), whose next word is no verb.
_CONJUNCTIONS = frozenset(
    {"and", "but", "then", "so", "while", "when", "before", "after", "until", "because", "or"}
)
_YOU_WORD = re.compile(r"You ([a-z]+)\b")
# "the Guard of You": the games' possessive for any seat, which for the reader is "your".
_OF_YOU = re.compile(r"\b([Tt])he (\w+) of [Yy]ou\b")
_SPACED_YOU = re.compile(r"(\(|\s+)You\b")
# "It is not You's turn": the possessive written after a name is "your" for the reader.
_YOUS = re.compile(r"\bYou's\b")


def _agreeing(verb: str) -> str:
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if len(verb) > 4 and verb.endswith("ies"):
        return verb[:-3] + "y"  # carries -> carry
    if verb.endswith(("sses", "shes", "ches", "xes", "zes")):
        return verb[:-2]  # passes -> pass, pushes -> push
    if verb.endswith(("ss", "us", "is")) or not verb.endswith("s"):
        return verb  # already agrees (You pass, You took), or is no verb
    return verb[:-1]  # plays -> play, places -> place


def _opens_a_clause(before: str) -> bool:
    before = before.rstrip()
    if not before or before[-1] in ".;:!?(,":
        return True
    return before.rsplit(None, 1)[-1] in _CONJUNCTIONS


def _subject(m: re.Match[str]) -> str:
    if m.start() > 0 and m.string[m.start() - 1].isalnum():
        return m.group(0)  # the end of a longer word
    if not _opens_a_clause(m.string[: m.start()]):
        return m.group(0)
    return f"You {_agreeing(m.group(1))}"


def _small(m: re.Match[str]) -> str:
    at = m.start()
    if m.group(1) != "(" and (at == 0 or m.string[at - 1] in ".!?"):
        return m.group(0)  # it opens a sentence
    return f"{m.group(1)}you"


def _yours(m: re.Match[str]) -> str:
    after = m.string[m.end() : m.end() + 1]
    if not after or after in ".,;:!?)":
        return "yours"  # "It is Bea's turn, not You's." -> "not yours."
    before = m.string[: m.start()].rstrip()
    return "Your" if not before or before[-1] in ".!?" else "your"


def to_reader(text: str) -> str:
    """`text` with "You" agreeing as English wants it."""
    if "You" not in text and "of you" not in text:
        return text  # most sentences: about someone else
    if "You's" in text:
        text = _YOUS.sub(_yours, text)
    text = _YOU_WORD.sub(_subject, text)
    if " of " in text:
        text = _OF_YOU.sub(lambda m: f"{'Y' if m.group(1) == 'T' else 'y'}our {m.group(2)}", text)
    return _SPACED_YOU.sub(_small, text)
