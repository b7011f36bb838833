"""``scoring.frames.each_rules``: what the Swabian and Russian kernels read a game's rules with."""

from __future__ import annotations

import polars as pl

from scoring.frames import GAMES, each_rules


def test_each_distinct_rules_text_is_read_once_and_given_to_every_game_of_it() -> None:
    texts = ['{"a":1}', None, '{"a":1}', '{"a":2}', None, '{"a":1}']
    games = pl.DataFrame({"game_id": [f"g{k}" for k in range(len(texts))],
                          "players": [["A", "B", "C"]] * len(texts), "rules": texts},
                         schema=GAMES)
    read: list[str | None] = []

    def reader(text: str | None) -> tuple[str | None, int]:
        read.append(text)
        return text, len(read)

    got = each_rules(games, reader)
    assert read == ['{"a":1}', None, '{"a":2}']
    assert [text for text, _ in got] == texts
    assert got[0] is got[2] is got[5] and got[1] is got[4]
