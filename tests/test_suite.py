"""What ``make test`` relies on to share its costly fixtures between tests (Makefile: ``-n 2
--dist loadgroup``)."""

from __future__ import annotations

import pytest

from tests.conftest import SHARED_FIXTURES


@pytest.mark.xdist_group("suite")
def test_an_xdist_group_reaches_the_scheduler(request: pytest.FixtureRequest) -> None:
    """pytest-xdist schedules by node id: a test of a group must carry ``@<group>`` in it, or the
    tests of a group (the browser tests' servers, ``tests/conftest.py`` ``SHARED_FIXTURES``) are
    spread over the workers and each builds their fixtures again."""
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("not run by pytest-xdist with --dist loadgroup")
    assert request.node.nodeid.endswith("@suite")


def test_the_tests_of_a_shared_fixture_share_a_group(request: pytest.FixtureRequest) -> None:
    """Every collected test that uses one of ``SHARED_FIXTURES`` is in that fixture's group."""
    users = {name: [item for item in request.session.items
                    if name in getattr(item, "fixturenames", ())] for name in SHARED_FIXTURES}
    if not any(users.values()):
        pytest.skip("no test of a shared fixture collected")
    for name, items in users.items():
        for item in items:
            groups = [m.args[0] for m in item.iter_markers("xdist_group") if m.args]
            assert groups == [name], item.nodeid
