"""Contracts: success rates by variant, contract and defence mode, a table and a heatmap.

Every rate carries its n and a Wilson 95% interval; choose a cell below the heatmap to list the
deals behind it. "made" and "defence mode" are defined in ``dashboards/queries.py``.
"""

from __future__ import annotations

import altair as alt
import polars as pl
import streamlit as st

from dashboards.common import empty, filters, guarded, query, rates

st.title("Contracts")
with guarded():
    f = filters()
    table = rates(query("contract_rates", f), "made", "n")
    if table.is_empty():
        empty("No declared deals match these filters: there is no contract to rate.")
        st.stop()
    st.dataframe(table.select("variant", "contract", "mode", "deals", "n", "made",
                              "rate (n, 95% CI)"), hide_index=True, key="contracts_table")

    variants = table["variant"].unique(maintain_order=True).to_list()
    variant = st.selectbox("Variant", variants, key="contracts_variant")
    cells = table.filter(pl.col("variant") == variant)
    data = cells.with_columns(
        pl.format("{}% (n={})", (pl.col("rate") * 100).round(0).cast(pl.Int64), pl.col("n"))
        .alias("label")
    ).to_pandas()
    order = cells["contract"].unique(maintain_order=True).to_list()
    heat = alt.Chart(data).encode(
        x=alt.X("contract:N", sort=order), y=alt.Y("mode:N", title="defence"),
    )
    chart = heat.mark_rect().encode(
        color=alt.Color("rate:Q", scale=alt.Scale(domain=[0, 1], scheme="redyellowgreen"),
                        title="made"),
        tooltip=["contract", "mode", "n", "made", "rate", "rate_low", "rate_high"],
    ) + heat.mark_text(fontSize=11).encode(text="label:N")
    st.altair_chart(chart.properties(height=60 + 40 * cells["mode"].n_unique()),
                    width="stretch")

    st.subheader("Deals behind a cell")
    contract = st.selectbox("Contract", order, key="contracts_contract")
    modes = cells.filter(pl.col("contract") == contract)["mode"].to_list()
    mode = st.selectbox("Defence mode", modes, key="contracts_mode")
    cell = cells.filter((pl.col("contract") == contract) & (pl.col("mode") == mode))
    if not cell.is_empty():
        st.caption(f"{variant} {contract} with defence {mode}: "
                   f"{cell['rate (n, 95% CI)'][0]}; {cell['deals'][0]} deals")
    deals = query("contract_deals", f, variant, contract, mode)
    if deals.is_empty():
        empty("No deals in this cell.")
    else:
        st.dataframe(deals, hide_index=True, key="contracts_deals")
