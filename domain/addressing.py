"""A sentence spoken to its reader: the games write "You" where the reader's name would
stand, and the verb after it as they would after a name ("Ann plays first"). Here the
verb agrees ("You play first", "You were dealt"), "the zone of You" is "your zone", and
a "You" inside a sentence is written small ("stole a card from you"), once for every
game instead of in each."""

from __future__ import annotations

import re

_IRREGULAR = {"was": "were", "has": "have", "is": "are", "does": "do", "goes": "go"}
# "You" as a subject, and the word after it: at the start of a sentence or a clause
# (after punctuation or a conjunction). After a verb or a preposition it is an object
# ("gave You cards"), whose next word is no verb.
_SUBJECT_VERB = re.compile(
    r"(^|[.;:!?(,]\s*|\b(?:and|but|then|so|while|when|before|after|until|because|or)\s+)"
    r"You ([a-z]+)\b"
)
# "the Guard of You": the games' possessive for any seat, which for the reader is "your".
_OF_YOU = re.compile(r"\b([Tt])he (\w+) of [Yy]ou\b")
# A "You" that does not open a sentence: after anything but the start or a full stop.
_INSIDE = re.compile(r"(?<=[^\s.!?])(\s+)You\b|(?<=\()You\b")


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


def to_reader(text: str) -> str:
    """`text` with "You" agreeing as English wants it."""
    text = _SUBJECT_VERB.sub(lambda m: f"{m.group(1)}You {_agreeing(m.group(2))}", text)
    text = _OF_YOU.sub(lambda m: f"{'Y' if m.group(1) == 'T' else 'y'}our {m.group(2)}", text)
    return _INSIDE.sub(lambda m: f"{m.group(1) or ''}you", text)
