"""Shared fixtures. The view's ShowBase is created lazily, once per test
session, with the offscreen config; only the view tests ask for it."""
from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def view_app():
    """The one Panda3D app of the test session, rendering offscreen."""
    from engine.view.app import get_app
    from engine.view.config import ViewConfig
    return get_app(ViewConfig(offscreen=True, width=640, height=400))


@pytest.fixture
def skirmish(view_app, tmp_path):
    """A hotseat controller on scenes/skirmish.yaml (seed 3); closed after the test. A test
    file that needs another seed defines its own ``skirmish``."""
    from view_fixtures import open_scene
    c = open_scene(view_app, tmp_path, "scenes/skirmish.yaml", seed=3)
    yield c
    c.close()
