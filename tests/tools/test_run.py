"""bcast-run --save-inputs: the inputs --seed makes, written where --inputs
reads them back, all or nothing."""

from __future__ import annotations

import numpy as np
import pytest

from bcast.tools import run as bcast_run_module
from bcast.tools.run import main as bcast_run

# every kind of argument: a nested tensor (saved as its flat array), floats,
# small integers, an index (a 0-d integer array) and booleans
PROGRAM = """
module attributes {bcast.semantics = "tml"} {
  func.func @main(%a: tensor<2xtensor<3xf32>>, %b: tensor<3xf32>, %m: tensor<3x2xi8>, %i: index, %p: tensor<3xi1>)
      -> (tensor<2xtensor<3xf32>>, tensor<3xf32>, tensor<i8>, tensor<3xi1>) {
    %s = bcast.add %a, %a : (tensor<2xtensor<3xf32>>, tensor<2xtensor<3xf32>>) -> tensor<2xtensor<3xf32>>
    %t = bcast.multiply %b, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %e = bcast.extract %m[%i, 1] : (tensor<3x2xi8>, index) -> tensor<i8>
    %n = bcast.not %p : tensor<3xi1>
    func.return %s, %t, %e, %n : tensor<2xtensor<3xf32>>, tensor<3xf32>, tensor<i8>, tensor<3xi1>
  }
}
"""


@pytest.fixture
def program(tmp_path):
    path = tmp_path / "prog.mlir"
    path.write_text(PROGRAM)
    return str(path)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = bcast_run(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def results(path) -> dict[str, np.ndarray]:
    with np.load(path) as data:
        return {k: data[k] for k in data.files}


@pytest.mark.parametrize("backend", ["reference", "numpy"])
def test_saved_inputs_give_the_seeds_results(tmp_path, capsys, program, backend):
    saved, seeded, replayed = tmp_path / "in.npz", tmp_path / "seed.npz", tmp_path / "replay.npz"
    status, _, err = run(capsys, program, "--backend", backend, "--seed", "7",
                         "--save-inputs", str(saved), "--output", str(seeded))
    assert status == 0, err
    inputs = results(saved)
    assert sorted(inputs) == ["arg0", "arg1", "arg2", "arg3", "arg4"]
    assert [(v.shape, v.dtype) for v in inputs.values()] == [
        ((2, 3), np.float32), ((3,), np.float32), ((3, 2), np.int8), ((), np.int64), ((3,), np.bool_)]
    status, _, err = run(capsys, program, "--backend", backend, "--inputs", str(saved),
                         "--output", str(replayed))
    assert status == 0, err
    want, got = results(seeded), results(replayed)
    assert sorted(want) == sorted(got) == ["result0", "result1", "result2", "result3"]
    for key in want:
        assert want[key].dtype == got[key].dtype
        np.testing.assert_array_equal(want[key], got[key])
    # and the printed results too
    assert run(capsys, program, "--backend", backend, "--seed", "7")[1] == \
        run(capsys, program, "--backend", backend, "--inputs", str(saved))[1]


def test_a_failed_write_leaves_no_file(tmp_path, capsys, program, monkeypatch):
    """A write that fails half-way leaves neither the file nor a temporary one,
    and an existing file keeps its old contents."""
    target = tmp_path / "in.npz"

    def half_written(f, **arrays):
        f.write(b"PK\x03\x04 half an archive")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(bcast_run_module.np, "savez", half_written)
    status, _, err = run(capsys, program, "--seed", "1", "--save-inputs", str(target))
    assert status == 1 and "Traceback" not in err
    assert "cannot write" in err and "No space left on device" in err
    assert list(tmp_path.iterdir()) == [tmp_path / "prog.mlir"]
    target.write_bytes(b"old")
    assert run(capsys, program, "--seed", "1", "--save-inputs", str(target))[0] == 1
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.npz", "prog.mlir"]


def test_an_unwritable_place_is_an_input_error(tmp_path, capsys, program):
    status, _, err = run(capsys, program, "--seed", "1", "--save-inputs", str(tmp_path / "no" / "in.npz"))
    assert status == 1 and "Traceback" not in err and "cannot write" in err


def test_save_inputs_with_inputs_is_a_usage_error(tmp_path, capsys, program):
    """--inputs are already in a file: there is nothing generated to save."""
    status, _, err = run(capsys, program, "--seed", "1", "--save-inputs", str(tmp_path / "in.npz"))
    assert status == 0, err
    status, _, err = run(capsys, program, "--inputs", str(tmp_path / "in.npz"),
                         "--save-inputs", str(tmp_path / "again.npz"))
    assert status == 2 and "--save-inputs" in err
    assert not (tmp_path / "again.npz").exists()
