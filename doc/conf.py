# SPDX-License-Identifier: AGPL-3.0-or-later
# Sphinx configuration of the pepsi-dispatch manual and its man pages.
# Built by the CMake targets `doc` (HTML) and `man` with -W: a warning fails
# the build. By hand: sphinx-build -W -b man doc build/doc/man
import os

project = "pepsi-dispatch"
author = "the PEPSI developers"
copyright = "the PEPSI developers, AGPL-3.0-or-later"
# CMake passes the project version (-D version=...); this is for a run by hand.
version = release = os.environ.get("PEPSI_VERSION", "0.2.0")

root_doc = "index"
source_suffix = {".rst": "restructuredtext"}
# pepsi-dispatch.rst is read through man/pepsi-dispatch.rst (an include).
exclude_patterns = ["_build", "pepsi-dispatch.rst"]
# The pages are read as plain text too: no roles or directives beyond docutils'.
highlight_language = "none"
pygments_style = "sphinx"
html_theme = "alabaster"
html_title = "pepsi-dispatch"
html_static_path = []
today_fmt = "%Y-%m-%d"

# (source, name, description, authors, section)
man_pages = [
    ("man/pepsi-dispatch", "pepsi-dispatch", "the PEPSI dispatcher: drives queued messages through pipeline stages",
     [], 1),
    ("man/pepsi.conf", "pepsi.conf", "configuration of pepsi-dispatch and its stage programs", [], 5),
    ("man/pepsi-schema", "pepsi-schema", "install or upgrade the PEPSI database schema", [], 1),
    ("man/pepsi-console", "pepsi-console", "the PEPSI admin console", [], 1),
    ("man/pepsi-ctl", "pepsi-ctl", "command-line client of the pepsi-dispatch control socket", [], 1),
]
man_show_urls = False

# Protocol examples elide with "..." and are not valid JSON: shown unhighlighted.
suppress_warnings = ["misc.highlighting_failure"]
