"""pipesim.campaign and pipesim.read_campaign: the command line's rows, typed, and mappers written in Python in the
campaign's worker processes."""

import json
import os
import textwrap

import pandas as pd
import pytest

import pipesim
from conftest import QUICKSTART_PERIOD

CAMPAIGN = textwrap.dedent("""\
    name: small
    mode: simulate
    base:
      pipeline: {generate: {preset: br07-exp1, n: 4, seed: 1}}
      platform: {generate: {preset: br07, p: 6, seed: 1}}
      mapper: br07.h7b-bsc
      simulation: {datasets: 40}
    sweep:
      mapper: [MAPPERS]
    seed: {from: 1, count: 3}
    """)


def write(tmp_path, mappers, name="c.yaml"):
    path = tmp_path / name
    path.write_text(CAMPAIGN.replace("MAPPERS", ", ".join(mappers)))
    return str(path)


def without_timing(csv_text):
    rows = [line.split(",") for line in csv_text.splitlines()]
    keep = [i for i, column in enumerate(rows[0]) if not column.startswith("timing.")]
    return [[row[i] for i in keep] for row in rows]


def test_campaign_writes_the_rows_of_the_command_line(tmp_path, cli):
    path = write(tmp_path, ["br07.h1a-gr", "br07.h7b-bsc"])
    cli("campaign", path, "--out", str(tmp_path / "cli"), "--jobs", "2", "-q")
    df = pipesim.campaign(path, tmp_path / "py", jobs=2)
    assert without_timing((tmp_path / "py" / "results.csv").read_text()) == \
        without_timing((tmp_path / "cli" / "results.csv").read_text())
    assert len(df) == 6 and list(df.run_id) == list(range(6))
    assert (df.status == "ok").all()
    assert df.attrs["summary"] == {"campaign": "small", "total": 6, "selected": 6, "skipped": 0, "executed": 6,
                                   "failures": 0}
    assert df.attrs["campaign"]["swept"] == ["mapper", "seed"]
    assert df.attrs["campaign"]["command"].startswith("python3: pipesim.campaign(")


def test_read_campaign_types_the_columns(tmp_path, cli):
    path = write(tmp_path, ["br07.h1a-gr"])
    cli("campaign", path, "--out", str(tmp_path / "out"), "--jobs", "1", "-q")
    df = pipesim.read_campaign(tmp_path / "out")
    assert df.dtypes["run_id"] == "int64" and df.dtypes["seed"] == "int64"
    assert df.dtypes["n"] == "Int64" and df.dtypes["crashes"] == "Int64"
    for column in ("analytic_period", "simulated_period", "rel_error_period", "timing.wall_seconds"):
        assert df.dtypes[column] == "float64", column
    assert df.dtypes["mapper"] == object and df.dtypes["param:mapper"] == object
    assert df.dtypes["param:seed"] == "int64"
    assert list(df["param:seed"]) == [1, 2, 3] and list(df.n) == [4, 4, 4]
    assert pd.isna(df.crashes).all() and pd.isna(df.error).all()  # empty cells: no crash run, no error
    assert (df.rel_error_period < 1e-9).all()


def test_resume_and_its_refusal(tmp_path):
    path = write(tmp_path, ["br07.h1a-gr"])
    pipesim.campaign(path, tmp_path / "out", jobs=1, only=[0])
    df = pipesim.campaign(path, tmp_path / "out", jobs=2)
    assert df.attrs["summary"]["skipped"] == 1 and df.attrs["summary"]["executed"] == 2 and len(df) == 3
    with pytest.raises(pipesim.InputError, match="already holds 3 results of a campaign; add --resume"):
        pipesim.campaign(path, tmp_path / "out", resume=False)
    with pytest.raises(pipesim.InputError, match="not a campaign output directory"):
        pipesim.read_campaign(tmp_path)


def test_a_bad_campaign_is_an_input_error_with_its_file_and_line(tmp_path):
    path = write(tmp_path, ["br07.h1a-gr", "no.such-mapper"])
    with pytest.raises(pipesim.InputError) as caught:
        pipesim.campaign(path, tmp_path / "out")
    e = caught.value
    assert e.file == path and e.line == 9 and "unknown mapper 'no.such-mapper'" in str(e)


def test_a_python_mapper_runs_in_two_workers(tmp_path):
    pids = tmp_path / "pids"

    @pipesim.mapper("test.fastest-first")
    def fastest_first(problem):
        """Stage i on the i-th fastest processor (one-to-one)."""
        with open(pids, "a") as f:
            f.write(f"{os.getpid()}\n")
        order = sorted(range(problem.p), key=lambda u: (-problem.speed[u], u))
        return [(i + 1, i + 1, order[i]) for i in range(problem.n)]

    path = write(tmp_path, ["test.fastest-first", "br07.h7b-bsc"])
    df = pipesim.campaign(path, tmp_path / "out", jobs=2)
    assert (df.status == "ok").all() and len(df) == 6
    mine = df[df.mapper == "test.fastest-first"]
    assert len(mine) == 3
    workers = {int(line) for line in pids.read_text().split()}
    assert len(workers) == 3 and os.getpid() not in workers  # each run in its own worker, none here
    # each row is what map() gives for that run's scenario (the seed sets the generated instance)
    for row in mine.itertuples():
        sc = scenario_of_run(tmp_path / "out", row.run_id)
        again = pipesim.map(sc)
        assert row.mapping == again.mapping_text and row.analytic_period == again.period
        assert abs(row.simulated_period - again.period) <= 1e-9 * again.period


def scenario_of_run(directory, run_id):
    """The complete scenario of a run, as its row in results.jsonl holds it (docs/campaigns.md)."""
    for line in open(directory / "results.jsonl"):
        row = json.loads(line)
        if row["run_id"] == run_id:
            return pipesim.Scenario.from_yaml(row["scenario_yaml"])
    raise KeyError(run_id)


def test_a_python_mapper_that_raises_gives_error_rows(tmp_path):
    @pipesim.mapper("test.raises")
    def raises(problem):
        raise ValueError("no idea")

    df = pipesim.campaign(write(tmp_path, ["test.raises"]), tmp_path / "out", jobs=2)
    assert list(df.status) == ["error"] * 3
    assert df.error[0].startswith("mapper 'test.raises' raised ValueError: no idea (at ")
    assert df.error[0].endswith("test_campaign.py(" + str(raises.__code__.co_firstlineno + 2) + "): raises)")


def test_quickstart_period_through_a_campaign(tmp_path):
    path = tmp_path / "q.yaml"
    path.write_text(f"name: q\nmode: simulate\nbase: {os.path.abspath('scenarios/examples/quickstart.yaml')}\n"
                    "sweep:\n  simulation.datasets: [150, 200]\n")
    df = pipesim.campaign(path, tmp_path / "out", jobs=2)
    assert list(df["param:simulation.datasets"]) == [150, 200]
    assert df.analytic_period.tolist() == pytest.approx([QUICKSTART_PERIOD] * 2, rel=1e-12)
    assert df.simulated_period.tolist() == pytest.approx([QUICKSTART_PERIOD] * 2, rel=1e-9)


def test_an_output_directory_that_cannot_be_made_is_an_input_error(tmp_path, cli):
    (tmp_path / "file").write_text("")
    path, out = write(tmp_path, ["br07.h1a-gr"]), str(tmp_path / "file" / "out")
    done = cli("campaign", path, "--out", out, "-q", check=False)
    assert done.returncode == 2
    with pytest.raises(pipesim.InputError) as caught:
        pipesim.campaign(path, out)
    assert done.stderr == f"pipesim: error: {caught.value}\n"
    assert str(caught.value) == f"{out}: Not a directory"
