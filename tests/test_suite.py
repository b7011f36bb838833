"""What ``make test`` relies on to share its costly fixtures between tests (Makefile: ``-n 2
--dist loadgroup``)."""

from __future__ import annotations

import pytest


@pytest.mark.xdist_group("suite")
def test_an_xdist_group_reaches_the_scheduler(request: pytest.FixtureRequest) -> None:
    """pytest-xdist schedules by node id: a test of a group must carry ``@<group>`` in it, or the
    tests of a group (the browser tests' servers, ``tests/conftest.py`` ``SHARED_FIXTURES``) are
    spread over the workers and each builds their fixtures again."""
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("not run by pytest-xdist with --dist loadgroup")
    assert request.node.nodeid.endswith("@suite")
