"""Issue 42: the operator's names blocklist — which names an entry blocks, and which it does
not (session/blocklist.py)."""

from __future__ import annotations

import pytest

from ono99.session import SessionError
from ono99.session.blocklist import Blocklist

LIST = Blocklist.parse(
    """
    # words nobody may be called here
    badword
    Two Words   # a run of words
    ~zork       # anywhere inside a name
    """
)


@pytest.mark.parametrize(
    "name",
    [
        "badword",
        "BADWORD",
        " badword ",
        "the badword one",
        "badword-fan",
        "ｂａｄｗｏｒｄ",  # full-width letters are the same letters
        "bаdwоrd",  # a Cyrillic а and о look like the Latin ones
        "two words",
        "my Two  Words!",
        "xXzorkXx",
        "ZORKY",
    ],
)
def test_a_blocked_name_is_refused_however_it_is_typed(name: str) -> None:
    assert LIST.blocks(name)
    with pytest.raises(SessionError) as caught:
        LIST.check(name)
    assert caught.value.code == "name_blocked"
    assert "badword" not in str(caught.value)  # never says which entry matched


@pytest.mark.parametrize("name", ["Ana", "badwordsmith", "twowords", "words two", "Zor k"])
def test_a_name_that_only_holds_the_letters_is_let_through(name: str) -> None:
    assert not LIST.blocks(name)
    LIST.check(name)


def test_comments_and_blank_lines_are_no_entries() -> None:
    assert len(Blocklist.parse("# nothing\n\n   \n#x\n")) == 0
    assert len(LIST) == 3
    assert not Blocklist().blocks("anything")
