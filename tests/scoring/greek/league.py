"""Random Greek Prefa leagues for property tests: valid records (no cards), every option of
greek-prefa.md section 14 and the bookkeeping of 15 mixed across games, small kassas so that
games reach the floor, the overflow (10) and the end (11)."""

from __future__ import annotations

import random

from model.greek.params import GreekRules
from model.greek.records import GreekDeal, GreekGame

DENOMS = ("S", "C", "D", "H", "NT")


def random_rules(rng: random.Random, four: bool) -> GreekRules:
    aces = rng.choice(["none", "raise_value", "fixed_chips"])
    return GreekRules(
        initial_kassa=rng.choice([1, 2, 3, 5, 8, 12, 20, 31]),
        ten_nt=rng.choice(["forbidden", "value_11", "value_10"]),
        ten_as_nine=rng.random() < 0.3,
        four_aces=aces,
        four_aces_amount=rng.choice([None, 0, 3, 7]),
        end_at_two_empty=rng.random() < 0.4,
        four_players=four,
        all_pass=rng.choice(["redeal", "play_low"]),
        concede_any_contract=rng.random() < 0.5,
        chip_rounding=rng.choice(["exact_rational", "round_half_up"]),
        concession_pays_sitter=rng.random() < 0.5,
        bookkeeping=rng.choice(["personal_kassa", "personal_kassa", "common_pot"]),
        pot_end=rng.choice(["normal", "unbalanced", "fair"]),
    )


def split(rng: random.Random, total: int, parts: int) -> list[int]:
    cuts = sorted(rng.randint(0, total) for _ in range(parts - 1))
    return [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]


def random_deal(rng: random.Random, game: GreekGame, deal_no: int) -> GreekDeal:
    players, rules = game.players, game.rules
    n = len(players)
    dealer = players[(deal_no - 1) % n] if rng.random() < 0.7 else rng.choice(players)
    active = [p for p in players if not (n == 4 and p == dealer)]
    base = {"game_id": game.game_id, "deal_no": deal_no, "dealer": dealer}
    kind = rng.choices(
        ["all_pass", "prelim", "solo", "pass", "both", "invite", "alone"],
        [1, 1, 1, 2, 8, 3, 3],
    )[0]
    if kind == "all_pass":
        tricks = dict(zip(active, split(rng, 10, 3), strict=True)) if rng.random() < 0.7 else None
        return GreekDeal(**base, tricks=tricks)
    declarer = rng.choice(active)
    i = players.index(declarer)
    order = [players[(i + k) % n] for k in range(1, n)]
    right, left = [p for p in order if p in active and p != declarer]
    if kind == "prelim":
        return GreekDeal(**base, declarer=declarer, preliminary=True, conceded=True)
    level = rng.choice([6, 6, 6, 7, 7, 8, 9, 10])
    denoms = DENOMS if (level < 10 or rules.ten_nt != "forbidden") else DENOMS[:4]
    contract = f"{level}{rng.choice(denoms)}"
    aces = rng.random() < 0.15
    if kind == "solo":
        return GreekDeal(**base, declarer=declarer, contract=contract, conceded=True,
                         four_aces=aces)
    if kind == "pass":
        return GreekDeal(**base, declarer=declarer, contract=contract, four_aces=aces,
                         defence={right: "pass", left: "pass"})
    t_d = min(10, max(0, level + rng.choice([-3, -2, -1, 0, 0, 0, 1, 1, 2, 3])))
    if kind == "both":
        t_r, t_l = split(rng, 10 - t_d, 2)
        return GreekDeal(**base, declarer=declarer, contract=contract, four_aces=aces,
                         defence={right: "play", left: "play"},
                         tricks={declarer: t_d, right: t_r, left: t_l})
    whister, passer = (right, left) if rng.random() < 0.5 else (left, right)
    if kind == "invite":
        t_w, t_p = split(rng, 10 - t_d, 2)
        return GreekDeal(**base, declarer=declarer, contract=contract, four_aces=aces,
                         defence={whister: "invite", passer: "pass"},
                         tricks={declarer: t_d, whister: t_w, passer: t_p})
    return GreekDeal(**base, declarer=declarer, contract=contract, four_aces=aces,
                     defence={whister: "alone", passer: "pass"},
                     tricks={declarer: t_d, whister: 10 - t_d})


def random_league(
    seed: int, games: int, max_deals: int
) -> tuple[list[GreekGame], list[GreekDeal]]:
    rng = random.Random(seed)
    out_games: list[GreekGame] = []
    out_deals: list[GreekDeal] = []
    for g in range(games):
        four = rng.random() < 0.4
        names = ("Ana", "Bo", "Cy", "Dee")[: 4 if four else 3]
        game = GreekGame(game_id=f"s{seed}-g{g:03d}", variant="greek-prefa",
                         players=names, rules=random_rules(rng, four))
        out_games.append(game)
        for k in range(rng.randint(0, max_deals)):
            out_deals.append(random_deal(rng, game, k + 1))
    return out_games, out_deals
