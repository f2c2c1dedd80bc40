"""The documents link only to what the repository holds (issue 10: docs linked to files
outside it), and the architecture pages link nowhere beyond it at all."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
PAGES = sorted(
    [ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "domain").rglob("README.md")]
)
# Pages about the house itself: what they describe is all in the repository.
SELF_CONTAINED = {"docs/architecture.md", "docs/writing-a-game.md"}


def links(page: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return LINK.findall(text)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_link_of_a_page_leads_to_a_file_of_the_repository(page: Path) -> None:
    name = page.relative_to(ROOT).as_posix()
    for target in links(page):
        if target.startswith("#") or target.startswith("mailto:"):
            continue
        if re.match(r"[a-z][a-z0-9+.-]*://", target):
            assert target.startswith("https://") and name not in SELF_CONTAINED, (
                f"{name} links outside the repository: {target}"
            )
            continue
        path = (page.parent / target.split("#")[0]).resolve()
        assert path.is_relative_to(ROOT.resolve()), f"{name}: {target} is outside the repository"
        assert path.exists(), f"{name}: {target} does not exist"


FOLDERS = "bench|deploy|docs|domain|events|scripts|services|tests|tools"
PATH = re.compile(rf"(?<![\w/.])((?:{FOLDERS})/[\w./{{}}*-]*\w)")


@pytest.mark.parametrize("name", sorted(SELF_CONTAINED))
def test_every_file_the_architecture_pages_name_is_in_the_repository(name: str) -> None:
    named = PATH.findall((ROOT / name).read_text(encoding="utf-8"))
    assert len(named) > 5
    for path in named:
        if any(c in path for c in "{}*"):
            continue  # a pattern (`domain/games/{name}/`), not a file
        assert (ROOT / path).exists(), f"{name} names {path}, which is not in the repository"
