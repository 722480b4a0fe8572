"""The process's own limits, raised where the system allows: the soft limit of open files up to
the hard one. A shell's soft limit is often 1024 while the hard one is far higher; every phone
connection is an open file, and the journal must always find one (the phones' doorman keeps
room for it: `seats.phones.doorman`)."""

from __future__ import annotations

import logging
import resource

log = logging.getLogger(__name__)


def raise_open_files_limit() -> None:
    """Soft limit of open files := hard limit (said in the log when it cannot be)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == hard:
        return
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (OSError, ValueError) as error:  # a seccomp filter, or a system that says no
        log.info("the limit of open files stays at %d (not raised to %d: %s)", soft, hard, error)
