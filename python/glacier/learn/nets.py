"""The nets that :mod:`glacier.learn` trains: the names of :mod:`glacier.nets`, where they
live so that playing a net needs numpy alone."""

from __future__ import annotations

from ..nets import BASELINES, Net, baseline, baseline_path, baseline_paths, load, save, spec_for

__all__ = ["BASELINES", "Net", "baseline", "baseline_path", "baseline_paths", "load", "save", "spec_for"]
