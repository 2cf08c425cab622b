"""The net file of :mod:`glacier.learn`'s nets: the names of :mod:`glacier.nets.netfile`."""

from __future__ import annotations

from ..nets.netfile import DTYPES, FORMAT, FORMAT_VERSION, NetSpec, read, tensor_shapes, write

__all__ = ["DTYPES", "FORMAT", "FORMAT_VERSION", "NetSpec", "read", "tensor_shapes", "write"]
