"""A pytest plugin for bench/peer_tests.py: the `--device` option and `device`
fixture Triton's test folders get from their conftest.py, for a checkout that
lacks it (loaded only then)."""
import os

import pytest


def pytest_addoption(parser):
    if os.environ.get("CTRITON_PEER_HAS_CONFTEST") != "1":
        parser.addoption("--device", action="store", default="cpu")


if os.environ.get("CTRITON_PEER_HAS_CONFTEST") != "1":
    @pytest.fixture
    def device(request):
        return request.config.getoption("--device")


def pytest_configure(config):
    """Forks' copies of the tests (triton-cpu's) import helpers that stock
    Triton's triton._internal_testing lacks; each answers a question whose answer
    on this backend is no, for both modes alike."""
    import triton._internal_testing as t
    for name in ("is_cpu", "is_hip_rdna3", "is_hip_rdna4", "is_hip_gfx1250"):
        if not hasattr(t, name):
            setattr(t, name, lambda: False)
