"""Russian preferans as a registered variant (``model/variants.py``)."""

from __future__ import annotations

from model.cards import DECK_32
from model.russian import frame
from model.russian.check import check_deal
from model.russian.records import RussianDeal, RussianGame
from model.tables import DEALS_RUSSIAN
from model.variants import VariantSpec

# Per deal (``model/views.py``): the defence mode is ``none`` in raspasy (all pass, 7), ``misere``
# (not whisted, 3), else ``pass`` (both passed, no play), ``half`` (half-whist), ``whist`` (one
# whister) or ``both`` (two whisters); made = the declarer took at least the contract's tricks, no
# trick in a misère; a contract nobody whisted is written to the pool as made (3).
OUTCOME_SQL = f"""
            SELECT game_id, deal_no, 'russian' AS variant,
                   CASE WHEN declarer IS NULL THEN 'none'
                        WHEN misere THEN 'misere'
                        WHEN defence_1 = 1 AND defence_2 = 1 THEN 'both'
                        WHEN defence_1 = 1 OR defence_2 = 1 THEN 'whist'
                        WHEN defence_2 = 2 THEN 'half'
                        ELSE 'pass' END AS defence_mode,
                   taken AS declarer_tricks,
                   CASE WHEN declarer IS NULL THEN NULL
                        WHEN misere THEN taken = 0
                        WHEN taken IS NULL THEN TRUE
                        ELSE taken >= level END AS made
            FROM (SELECT *, [tricks_0, tricks_1, tricks_2, tricks_3][declarer + 1] AS taken
                  FROM {DEALS_RUSSIAN})"""

VARIANT = VariantSpec(
    name="russian",
    aliases=("russian-preferans", "preferans", "sochi", "pulya"),
    deck=DECK_32,
    game_model=RussianGame,
    deal_model=RussianDeal,
    deals_table=DEALS_RUSSIAN,
    frame_schema=dict(frame.SCHEMA),
    outcome_sql=OUTCOME_SQL,
    check=check_deal,
    row=frame.deal_row,
)
