"""Word pairs that stay fair: fresh pairs for the deal, and the out-of-band report."""

from __future__ import annotations

from app.games.undercover.fairness import MIN_GAMES, fresh_pairs, records, wordpair_key
from app.games.undercover.game import GAME as UNDERCOVER_GAME
from app.games.undercover.wordpairs import default_library
from app.protocol.registry import RemembersContent

PAIRS = [("苹果", "梨"), ("猫", "狗"), ("咖啡", "茶")]


def test_the_key_ignores_which_word_the_civilians_got() -> None:
    assert wordpair_key("猫", "狗") == wordpair_key("狗", "猫")


def test_recent_pairs_are_avoided() -> None:
    assert fresh_pairs(PAIRS, {wordpair_key("狗", "猫"), wordpair_key("苹果", "梨")}) == [("咖啡", "茶")]


def test_a_library_run_short_falls_back_to_every_pair() -> None:
    assert fresh_pairs(PAIRS, {wordpair_key(*p) for p in PAIRS}) == PAIRS


def test_the_deal_never_draws_an_avoided_pair() -> None:
    game = UNDERCOVER_GAME
    assert isinstance(game, RemembersContent)
    every = {wordpair_key(*pair.words) for pair in default_library().pairs(None)}
    keep = sorted(every)[0]
    for seed in range(20):
        state = game.new_match(game.parse_config({"n_players": 4, "n_undercover": 1}), "h0", "h0", seed=seed,
                               now=0.0).state
        for seat in range(1, 3):
            state = game.apply(state, game.join(f"p{seat}", f"p{seat}"), now=0.0).state
        last = game.join_avoiding("p3", "p3", frozenset(every - {keep}))
        assert game.content_key(game.apply(state, last, now=0.0).state) == keep


def test_the_report_lists_pairs_outside_the_band_after_enough_games() -> None:
    finished = ([("a|b", "undercover")] * 20 + [("a|b", "civilian")] * 10  # 67 % after 30: out
                + [("c|d", "undercover")] * 9 + [("c|d", "civilian")] * 21  # 30 %: inside
                + [("e|f", "undercover")] * (MIN_GAMES - 1)  # too few games to judge
                + [("g|h", "blank")] * 2 + [("g|h", "civilian")] * 28)  # 7 %: out (a blank wins with them)
    by_key = {r.key: r for r in records(finished)}
    assert [k for k, r in sorted(by_key.items()) if r.out_of_band] == ["a|b", "g|h"]
    assert by_key["g|h"].undercover_wins == 2
