"""Net files: what glacier writes any safetensors reader reads (and the other way), and every
bad file is refused with a clear InvalidNetError, nothing half-written."""

from __future__ import annotations

import json
import math
import struct
from pathlib import Path

import numpy as np
import pytest

import glacier
from glacier import learn
from glacier.errors import InvalidNetError
from glacier.learn import netfile

#: Games picked by what they are, not by name: the smallest observations first, and a game
#: of several player counts.
BY_SIZE = sorted(glacier.GAMES, key=lambda g: math.prod(glacier.observation_shape(g)))
SMALL, OTHER = BY_SIZE[0], BY_SIZE[1]
MULTI = next(g for g in glacier.GAMES if len(glacier.game_spec(g).seats) > 1)


def random_net(game: str, hidden: tuple[int, ...] = (16, 8), seed: int = 0, **params: object) -> learn.Net:
    spec = learn.spec_for(game, hidden, training={"note": "random"}, **params)
    rng = np.random.default_rng(seed)
    tensors = {k: (rng.standard_normal(s) * 0.3).astype(np.float32) for k, s in netfile.tensor_shapes(spec).items()}
    return learn.Net(spec, tensors)


@pytest.mark.parametrize("game", glacier.GAMES)
def test_a_saved_net_loads_back_the_same(tmp_path: Path, game: str) -> None:
    net = random_net(game)
    path = tmp_path / "net.safetensors"
    learn.save(path, net)
    back = learn.load(path)
    assert back.spec == net.spec
    assert back.training == {"note": "random"}
    assert back.digest() == net.digest()
    for name in net.tensors:
        assert np.array_equal(back.tensors[name], net.tensors[name])
    assert [p.name for p in tmp_path.iterdir()] == ["net.safetensors"]  # no temporary left


def test_the_safetensors_package_reads_and_writes_glacier_nets(tmp_path: Path) -> None:
    safetensors_numpy = pytest.importorskip("safetensors.numpy")
    from safetensors import safe_open

    net = random_net(OTHER)
    learn.save(tmp_path / "ours.safetensors", net)
    theirs = safetensors_numpy.load_file(str(tmp_path / "ours.safetensors"))
    assert set(theirs) == set(net.tensors)
    assert all(np.array_equal(theirs[k], net.tensors[k]) for k in theirs)
    with safe_open(str(tmp_path / "ours.safetensors"), "np") as f:
        meta = f.metadata()
    assert meta["game"] == OTHER and json.loads(meta["hidden"]) == [16, 8]
    safetensors_numpy.save_file(net.tensors, str(tmp_path / "theirs.safetensors"), metadata=net.spec.metadata())
    assert learn.load(tmp_path / "theirs.safetensors").digest() == net.digest()


def test_a_net_saved_in_float16_is_half_the_size_and_loads_as_float32(tmp_path: Path) -> None:
    net = random_net(OTHER, hidden=(64, 64))
    learn.save(tmp_path / "full.safetensors", net)
    learn.save(tmp_path / "half.safetensors", net, dtype="float16")
    full, half = ((tmp_path / f"{n}.safetensors").stat().st_size for n in ("full", "half"))
    assert 0.49 < half / full < 0.51
    back = learn.load(tmp_path / "half.safetensors")
    assert back.spec == net.spec
    for name, weights in net.tensors.items():
        assert back.tensors[name].dtype == np.float32
        assert np.array_equal(back.tensors[name], weights.astype(np.float16).astype(np.float32))
    # Any safetensors reader sees float16 tensors.
    safetensors_numpy = pytest.importorskip("safetensors.numpy")
    theirs = safetensors_numpy.load_file(str(tmp_path / "half.safetensors"))
    assert all(theirs[k].dtype == np.float16 for k in theirs)


def test_weights_too_large_for_float16_or_another_dtype_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "net.safetensors"
    learn.save(path, random_net(OTHER))
    before = path.read_bytes()
    net = random_net(OTHER)
    net.tensors["dense0.weight"][0, 0] = 1e6  # float16 holds at most 65504
    with pytest.raises(InvalidNetError, match="too large for float16"):
        learn.save(path, net, dtype="float16")
    with pytest.raises(InvalidNetError, match="not 'float64'"):
        learn.save(path, net, dtype="float64")
    assert path.read_bytes() == before and not list(tmp_path.glob("*.partial"))
    learn.save(path, net)  # float32 holds it

    def as_float64(header: dict[str, object]) -> None:
        header["value.bias"]["dtype"] = "F64"  # type: ignore[index]

    _rewrite(path, as_float64)
    with pytest.raises(InvalidNetError, match=r"value\.bias is not float32 or float16"):
        learn.load(path)


def test_e_nets_are_per_player_count(tmp_path: Path) -> None:
    net = random_net(MULTI, players=3)
    assert net.spec.num_players == 3 and net.params["players"] == 3
    learn.save(tmp_path / "e3.safetensors", net)
    assert learn.load(tmp_path / "e3.safetensors", MULTI, players=3).spec.num_players == 3
    with pytest.raises(InvalidNetError, match="players"):
        learn.load(tmp_path / "e3.safetensors", MULTI, players=2)


def test_the_evaluator_puts_the_movers_values_in_player_order() -> None:
    net = random_net(MULTI, players=3)
    states = [glacier.new_game(MULTI, players=3) for _ in range(3)]
    for k, state in enumerate(states):
        for _ in range(k):
            state.play(state.legal_moves()[0])
    observations = np.stack([s.observation() for s in states])
    legal = np.stack([s.legal_action_mask() for s in states])
    to_play = np.asarray([s.current_player for s in states])
    assert to_play.tolist() == [0, 1, 2]
    logits, values = net(observations, legal, to_play)
    _, relative = net.forward(observations, to_play)
    for row, mover in enumerate(to_play):
        for k in range(3):
            assert abs(values[row, (mover + k) % 3] - relative[row, k]) <= 1e-5  # engine and numpy
    assert logits.shape == legal.shape and logits.dtype == np.float32


def test_a_missing_file_or_a_directory(tmp_path: Path) -> None:
    with pytest.raises(InvalidNetError, match="no net file"):
        learn.load(tmp_path / "absent.safetensors")
    with pytest.raises(InvalidNetError, match="directory"):
        learn.load(tmp_path)


def test_every_truncation_is_refused(tmp_path: Path) -> None:
    net = random_net(SMALL, hidden=(4,))
    learn.save(tmp_path / "net.safetensors", net)
    raw = (tmp_path / "net.safetensors").read_bytes()
    (size,) = struct.unpack("<Q", raw[:8])
    cuts = sorted({0, 3, 8, 9, 8 + size // 2, 8 + size, 8 + size + 1, len(raw) - 4, len(raw) - 1})
    for cut in cuts:
        (tmp_path / "cut.safetensors").write_bytes(raw[:cut])
        with pytest.raises(InvalidNetError, match="not a glacier net"):
            learn.load(tmp_path / "cut.safetensors")


def _rewrite(path: Path, edit_header: object = None, edit_data: object = None) -> None:
    raw = path.read_bytes()
    (size,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + size])
    data = bytearray(raw[8 + size :])
    if callable(edit_header):
        edit_header(header)
    if callable(edit_data):
        edit_data(header, data)
    text = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(text)) + text + bytes(data))


def test_another_game_another_shape_and_bad_metadata(tmp_path: Path) -> None:
    path = tmp_path / "net.safetensors"
    learn.save(path, random_net(SMALL))
    with pytest.raises(InvalidNetError, match=f"for {SMALL}, not for {OTHER}"):
        learn.load(path, OTHER)
    # A net that claims to be Kuba's but has Ice Cube Checkers' shapes.
    _rewrite(path, lambda h: h["__metadata__"].update(game=OTHER))
    with pytest.raises(InvalidNetError, match="observations of shape"):
        learn.load(path)
    learn.save(path, random_net(SMALL))
    _rewrite(path, lambda h: h["__metadata__"].update(num_actions="16"))
    with pytest.raises(InvalidNetError, match="policy"):
        learn.load(path)
    learn.save(path, random_net(SMALL))
    _rewrite(path, lambda h: h["__metadata__"].update(format_version="2"))
    with pytest.raises(InvalidNetError, match="format version 2"):
        learn.load(path)
    learn.save(path, random_net(SMALL))
    _rewrite(path, lambda h: h.pop("__metadata__"))
    with pytest.raises(InvalidNetError, match="metadata"):
        learn.load(path)
    learn.save(path, random_net(SMALL))
    _rewrite(path, lambda h: h["__metadata__"].update(game="go"))
    with pytest.raises(InvalidNetError, match="cannot make"):
        learn.load(path)
    learn.save(path, random_net(SMALL))
    _rewrite(path, lambda h: h["__metadata__"].update(hidden="[16, 9]"))
    with pytest.raises(InvalidNetError, match="shape"):
        learn.load(path)
    path.write_bytes(b"\x10\x00\x00\x00\x00\x00\x00\x00not json at all!")
    with pytest.raises(InvalidNetError, match="not JSON"):
        learn.load(path)


def test_nan_and_infinite_weights_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "net.safetensors"
    for bad in (np.nan, np.inf, -np.inf):
        learn.save(path, random_net(OTHER))

        def poison(header: dict[str, object], data: bytearray, bad: float = bad) -> None:
            start = header["dense1.bias"]["data_offsets"][0]  # type: ignore[index]
            data[start : start + 4] = np.float32(bad).tobytes()

        _rewrite(path, edit_data=poison)
        with pytest.raises(InvalidNetError, match="NaN or infinite"):
            learn.load(path)
    net = random_net(OTHER)
    net.tensors["value.bias"][0] = np.nan
    before = (tmp_path / "net.safetensors").read_bytes()
    with pytest.raises(InvalidNetError, match="NaN or infinite"):
        learn.save(path, net)
    assert (tmp_path / "net.safetensors").read_bytes() == before  # left as it was
    assert not list(tmp_path.glob("*.partial"))


def test_a_net_of_the_wrong_tensors_cannot_be_made() -> None:
    net = random_net(OTHER)
    tensors = dict(net.tensors)
    tensors["policy.weight"] = tensors["policy.weight"][:, :-1]
    with pytest.raises(InvalidNetError, match="shape"):
        learn.Net(net.spec, tensors)
    del tensors["policy.weight"]
    with pytest.raises(InvalidNetError, match="tensors"):
        learn.Net(net.spec, tensors)
