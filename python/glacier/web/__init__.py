"""The local web app of ``glacier serve``: play and study every game in a browser.

:func:`create_app` builds the Starlette application; :func:`serve` runs it with uvicorn.
"""

from __future__ import annotations

import threading
import webbrowser
from typing import Any, Optional

__all__ = ["create_app", "serve"]


def create_app(preload: Optional[list[Any]] = None) -> Any:
    """The web app (see :mod:`glacier.web.app`)."""
    from .app import create_app as create

    return create(preload)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    open_browser: bool = False,
    preload: Optional[list[Any]] = None,
    path: str = "/",
) -> None:
    """Runs the web app on ``host``:``port`` until Ctrl-C; with ``open_browser`` opens the page."""
    import uvicorn

    app = create_app(preload)
    url = f"http://{'localhost' if host in ('127.0.0.1', '0.0.0.0', '::') else host}:{port}{path}"
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    print(f"glacier serve: open {url} (Ctrl-C stops)")
    uvicorn.run(app, host=host, port=port, log_level="warning")
