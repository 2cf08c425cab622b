"""docs/quickstart.ipynb, the notebook the documentation site shows, runs as it is stored:
executed afresh (nbclient, a kernel of this Python, from docs/ so its links resolve) no cell
fails, and every cell prints what the stored notebook shows (each of its results is seeded).
``python tests/test_notebook.py`` runs it and stores its outputs again (``make notebook``)."""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOK = Path(__file__).parent.parent / "docs" / "quickstart.ipynb"


def execute(notebook: Any) -> Any:
    """``notebook`` run from its first cell, with its outputs (no timings, so a run that prints
    the same stores the same file)."""
    ran = copy.deepcopy(notebook)
    for cell in ran.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    client = nbclient.NotebookClient(
        ran,
        timeout=300,
        kernel_name="python3",
        record_timing=False,
        resources={"metadata": {"path": str(NOTEBOOK.parent)}},
    )
    client.execute()
    return ran


def outputs(notebook: Any) -> list[list[dict[str, Any]]]:
    """What each code cell shows: its streams' text and its results' data, by kind."""
    shown = []
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        shown.append([{"text": out.get("text", ""), **out.get("data", {})} for out in cell.outputs])
    return shown


def test_the_quickstart_notebook_runs_and_shows_what_it_stores() -> None:
    stored = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(stored)
    ran = execute(stored)
    assert all(out.output_type != "error" for cell in ran.cells if cell.cell_type == "code" for out in cell.outputs)
    assert outputs(ran) == outputs(stored), "the notebook's stored outputs are stale: make notebook stores them again"
    shown = [kind for cell in outputs(ran) for out in cell for kind in out]
    assert "image/svg+xml" in shown, "the notebook shows a picture"


if __name__ == "__main__":
    notebook = execute(nbformat.read(NOTEBOOK, as_version=4))
    nbformat.write(notebook, NOTEBOOK)
    print(f"stored the outputs of {NOTEBOOK}", file=sys.stderr)
