"""Registers glacier's Gymnasium environments when Gymnasium is imported.

Gymnasium 1.x reads no plugins from package entry points, so the ``glacier-games``
distribution installs ``glacier_games_gymnasium.pth``, which imports this module when the
interpreter starts. It imports nothing and only adds a finder to ``sys.meta_path``: once
``gymnasium`` itself has been imported (by anyone), the finder imports
``glacier.gymnasium_env``, which registers ``glacier/<Game>-v0``, so that
``gymnasium.make("glacier/Kuba-v0")`` works without importing glacier first. Without
Gymnasium, or without the ``gym`` extra's packages, it does nothing.
"""

from __future__ import annotations

import contextlib
import importlib.abc
import importlib.util
import sys
from types import ModuleType
from typing import Any, Optional, Sequence


class _RegisterGlacierEnvs(importlib.abc.MetaPathFinder):
    """Wraps the loading of ``gymnasium`` so that glacier's environments are registered
    right after it; it steps out of ``sys.meta_path`` the first time it is asked."""

    def find_spec(
        self, fullname: str, path: Optional[Sequence[str]], target: Optional[ModuleType] = None
    ) -> Optional[Any]:
        if fullname != "gymnasium":
            return None
        if self in sys.meta_path:
            sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        exec_gymnasium = spec.loader.exec_module

        def exec_module(module: ModuleType) -> None:
            exec_gymnasium(module)
            # Without the gym extra's packages there is nothing to register.
            with contextlib.suppress(ImportError):
                import glacier.gymnasium_env  # noqa: F401  (registers on import)

        spec.loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


if "gymnasium" not in sys.modules and not any(isinstance(f, _RegisterGlacierEnvs) for f in sys.meta_path):
    sys.meta_path.insert(0, _RegisterGlacierEnvs())
