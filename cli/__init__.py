"""Razz hand histories: read them, replay them against the rules, store and review them.

The package maps the repository's folders: `razz.parser` (parser/), `razz.replay` (replay/),
`razz.simulate` (simulate/), `razz.store` (store/), `razz.dashboard` (dashboard/),
`razz.grammar` (grammar/), `razz.analysis` (analysis/).
"""

__version__ = "0.1.0"
