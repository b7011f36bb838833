"""The dashboard pages, one script each, run by ``st.navigation`` in ``dashboards/app.py``."""
