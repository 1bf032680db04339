"""The dashboard's entry point (`streamlit run`): page setup, navigation, database status."""

from __future__ import annotations

import streamlit as st

from razz.dashboard import data, widgets
from razz.dashboard import format as fmt

st.set_page_config(page_title="Razz review", page_icon="🂡", layout="wide")

PAGES = [
    st.Page(str(widgets.VIEWS / "sessions.py"), title="Sessions", icon=":material/show_chart:",
            url_path="sessions", default=True),
    st.Page(str(widgets.VIEWS / "players.py"), title="Player statistics",
            icon=":material/groups:", url_path="players"),
    st.Page(str(widgets.VIEWS / "starting_hands.py"), title="Starting hands",
            icon=":material/style:", url_path="starting-hands"),
    st.Page(widgets.REPLAYER, title="Hand replayer", icon=":material/replay:",
            url_path="replayer"),
    st.Page(str(widgets.VIEWS / "audit.py"), title="Audit", icon=":material/gavel:",
            url_path="audit"),
    st.Page(str(widgets.VIEWS / "fairness.py"), title="Deal fairness",
            icon=":material/balance:", url_path="fairness"),
]
if widgets.import_allowed():  # the dashboard's only write: `razz dashboard --allow-import`
    PAGES.append(st.Page(str(widgets.VIEWS / "importer.py"), title="Import",
                         icon=":material/upload_file:", url_path="import"))

page = st.navigation(PAGES)
st.sidebar.caption(f"Database: {fmt.markdown_literal(data.database_path())}")
try:
    page.run()
except data.DatabaseUnavailable as unavailable:
    st.warning(fmt.markdown_literal(unavailable), icon=":material/hourglass_top:")
    st.button("Try again")
finally:
    # Let go of the file between reruns so that `razz import` can write to it meanwhile.
    data.release()
