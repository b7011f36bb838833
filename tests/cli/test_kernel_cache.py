"""The compiled kernels' cache folder for a user who can write neither the install nor his home
(``trickbook/__init__.py``): numba raised "no locator available" at the first kernel, so every
command failed. A folder below a regular file cannot be made, even by root: it stands for a
folder the user cannot write."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from trickbook import KERNEL_CACHE_ENV, writable_kernel_cache


@pytest.fixture
def blocked(tmp_path: Path) -> Path:
    """A path no folder can be made at."""
    (tmp_path / "file").write_text("")
    return tmp_path / "file" / "below"


@pytest.fixture
def temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def test_neither_install_nor_home_writable_caches_in_the_temporary_folder(
        blocked: Path, temporary: Path) -> None:
    env = {"HOME": str(blocked)}
    writable_kernel_cache(env, source=blocked)
    cache = Path(env[KERNEL_CACHE_ENV])
    assert cache.parent == temporary and cache.name.startswith("trickbook-kernels-")
    assert cache.is_dir()


def test_xdg_cache_home_is_the_users_cache(blocked: Path, temporary: Path,
                                           tmp_path: Path) -> None:
    env = {"HOME": str(blocked), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    writable_kernel_cache(env, source=blocked)
    assert KERNEL_CACHE_ENV not in env  # numba's own user-wide folder can be written
    assert (tmp_path / "cache" / "numba").is_dir()


def test_a_writable_install_keeps_numbas_choice(blocked: Path, temporary: Path,
                                                tmp_path: Path) -> None:
    env = {"HOME": str(blocked)}
    writable_kernel_cache(env, source=tmp_path / "install")
    assert KERNEL_CACHE_ENV not in env


def test_a_folder_the_user_chose_is_kept(blocked: Path, temporary: Path) -> None:
    env = {"HOME": str(blocked), KERNEL_CACHE_ENV: "/somewhere/else"}
    writable_kernel_cache(env, source=blocked)
    assert env[KERNEL_CACHE_ENV] == "/somewhere/else"


def test_no_temporary_folder_leaves_numba_its_own_choice(
        blocked: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With no writable temporary folder either, importing the commands must not fail (even
    ``trickbook --help`` did)."""
    monkeypatch.setattr(tempfile, "tempdir", None)
    monkeypatch.setattr(tempfile, "_candidate_tempdir_list", lambda: [str(blocked)])
    env = {"HOME": str(blocked)}
    writable_kernel_cache(env, source=blocked)
    assert KERNEL_CACHE_ENV not in env
