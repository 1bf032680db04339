"""Import: upload hand histories from the browser, load them, and see what came in.

The page exists only when `razz dashboard --allow-import` started the server: it is the
dashboard's only write, and it keeps the uploaded files beside the database.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from razz.dashboard import data, shape, uploads, widgets

st.title("Import hand histories")
if not widgets.import_allowed():  # the page is not even listed then; an old link lands here
    st.warning("Importing from the dashboard is off: start it with "
               "`razz dashboard --allow-import`, or run `razz import` in a terminal.")
    st.stop()
st.caption(
    f"Hand histories of every room read ({uploads.rooms_read()}: "
    f"{', '.join(uploads.SUFFIXES)} files), or zip archives of them, up to "
    f"{uploads.max_upload_mb()} MB each. Hands already in the database are not added twice. "
    f"The files are kept in {uploads.uploads_folder(data.database_path())}, beside the "
    "database."
)

with st.form("upload", clear_on_submit=True):
    files = st.file_uploader(
        "Hand-history files", type=[*uploads.SUFFIXES, ".zip"], accept_multiple_files=True,
        max_upload_size=uploads.max_upload_mb(), key="upload_files",
    )
    submitted = st.form_submit_button("Import", type="primary", icon=":material/upload:")

if submitted:
    if not files:
        st.warning("Choose at least one file first.")
    else:
        folder = uploads.save(data.database_path(), [(f.name, f.getvalue()) for f in files])
        # The importer is the only writer: this server's reader lets go of the file first.
        with st.spinner(f"Importing {len(files)} file(s)…"), \
                data.reader(data.database_path()).released():
            st.session_state["last_import"] = uploads.run_import(data.database_path(), folder)
        data.forget_cached_results()

last: uploads.ImportOutcome | None = st.session_state.get("last_import")
if last is None:
    st.stop()
outcome: uploads.ImportOutcome = last  # st.stop() never returns

st.subheader("Last import")
report = uploads.ImportReport.of(outcome.folder)
failed = report is None or outcome.returncode not in (0, 1)  # 1: some hand broke a rule
if failed:
    st.error(f"The import did not complete (exit code {outcome.returncode}): its output is "
             "below.")
if report is not None:
    cols = st.columns(5)
    cols[0].metric("Files", f"{len(report.files):,}")
    cols[1].metric("New hands", f"{int(report.files['hands'].sum()):,}")
    cols[2].metric("Already stored", f"{int(report.files['duplicates'].sum()):,}")
    cols[3].metric("Rejected", f"{int(report.files['rejected'].sum()):,}")
    cols[4].metric("Other games skipped", f"{int(report.files['skipped'].sum()):,}")
    st.dataframe(pd.DataFrame({
        "File": report.files["path"].map(uploads.display_name),
        "Bytes": report.files["size"], "New hands": report.files["hands"],
        "Already stored": report.files["duplicates"], "Rejected": report.files["rejected"],
        "Skipped": report.files["skipped"], "Findings": report.files["findings"],
    }), hide_index=True, width="stretch", key="import_files")
    if len(report.rejects):
        st.markdown(f"#### {shape.plural(len(report.rejects), 'rejected hand')}")
        st.caption("Each as file:line: reason. The other hands of these files were imported.")
        # st.code shows text as written: nothing from a log becomes Markdown or HTML.
        st.code(uploads.reject_lines(report.rejects), language=None, wrap_lines=True)
    if len(report.skipped):
        st.markdown("#### Hands of other games")
        st.dataframe(pd.DataFrame({
            "File": report.skipped["source"].map(uploads.display_name),
            "Hand": report.skipped["hand_id"], "Line": report.skipped["first_line"],
            "Game": report.skipped["game"], "Why": report.skipped["reason"],
        }), hide_index=True, width="stretch", key="import_skipped")
with st.expander("Output of the importer", expanded=failed):
    st.code(outcome.output or "(nothing)", language=None)
