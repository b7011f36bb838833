"""The least page with a table Streamlit draws: a title and eight rows (``bench/bench_cold.py``,
the floor a cold League page is measured against)."""

import pandas as pd
import streamlit as st

st.set_page_config(page_title="trickbook", layout="wide")
st.title("League")
st.dataframe(pd.DataFrame({"player": [f"P{i}" for i in range(8)], "games": range(8),
                           "cash": range(8)}), hide_index=True)
