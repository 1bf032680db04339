"""Importing this module builds every site's parser in this process, once.

The worker pool's forkserver imports it before it forks any worker (its preload list,
`razz.store.ingest.worker_pool`): every worker then starts with the grammars loaded and their
line patterns made, instead of building them again, one process after the other. The
parsers' later state (the line regexes compiled as lines are first read) stays each
worker's own.
"""

from razz.parser import sites

for _site in sites.SITES:
    _site.reader()  # a site's parser is built once per process (its `default_parser`)
