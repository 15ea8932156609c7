"""pipesim.load, Scenario.from_dict / to_dict / with_values, and pipesim.InputError's file, line and key."""

import pytest

import pipesim
from conftest import QUICKSTART
from pipesim._errors import location


def test_load_reads_the_file_as_written():
    sc = pipesim.load(QUICKSTART)
    assert sc.name == "quickstart"
    assert sc.file == QUICKSTART
    assert sc.base_dir == "scenarios/examples"
    d = sc.to_dict()
    assert d["pipeline"] == {"w": [10, 20, 5], "delta": [10, 10, 10, 10]}
    assert d["platform"]["processors"][0] == {"name": "P1", "speed": 12, "failure_probability": 0.1, "nic_in": 20,
                                              "nic_out": 20}
    assert d["simulation"]["trace"] is False and isinstance(d["simulation"]["datasets"], int)
    assert sc.to_yaml() == open(QUICKSTART).read()


def test_from_dict_round_trip_maps_as_the_file():
    sc = pipesim.load(QUICKSTART)
    again = pipesim.Scenario.from_dict(sc.to_dict(), base_dir=sc.base_dir)
    assert again.to_dict() == sc.to_dict()
    assert again.file == "<dict>"
    assert pipesim.map(again).period == pipesim.map(sc).period


def test_with_values_sets_dotted_keys_in_a_copy():
    sc = pipesim.load(QUICKSTART)
    more = sc.with_values({"simulation.datasets": 400, "platform.processors": [{"name": "P1", "speed": 5}],
                           "name": "007"})
    assert more.to_dict()["simulation"]["datasets"] == 400
    assert more.to_dict()["platform"]["processors"] == [{"name": "P1", "speed": 5}]
    assert more.name == "007" and more.to_dict()["name"] == "007"  # a string that reads as a number stays one
    assert sc.to_dict()["simulation"]["datasets"] == 200  # the original is unchanged
    assert more.file == QUICKSTART  # results name the file, as `pipesim simulate FILE --datasets 400` does
    assert "with_values" in more.describe()


def test_with_values_none_removes_a_key():
    sc = pipesim.load(QUICKSTART).with_values({"simulation.warmup": None})
    assert "warmup" not in sc.to_dict()["simulation"]


def test_input_error_of_a_file_names_its_file_line_and_key(tmp_path):
    bad = tmp_path / "bad.yaml"
    lines = open(QUICKSTART).read().splitlines()
    number = next(i for i, line in enumerate(lines) if "name: P3" in line)
    lines[number] = lines[number].replace("speed: 10", "speed: -10")
    bad.write_text("\n".join(lines) + "\n")
    with pytest.raises(pipesim.InputError) as caught:
        pipesim.load(bad)
    e = caught.value
    assert (e.file, e.line, e.key) == (str(bad), number + 1, "platform.processors[2].speed")
    assert str(e) == (f"{bad}:{number + 1}: key 'platform.processors[2].speed': value '-10': expected a positive "
                      "finite number")
    assert isinstance(e, ValueError)


def test_input_error_is_the_cli_message(tmp_path, cli):
    bad = tmp_path / "bad.yaml"
    bad.write_text(open(QUICKSTART).read().replace("datasets: 200", "datasets: many"))
    done = cli("map", str(bad), check=False)
    assert done.returncode == 2
    with pytest.raises(pipesim.InputError) as caught:
        pipesim.load(bad)
    assert done.stderr == f"pipesim: error: {caught.value}\n"
    assert caught.value.key == "simulation.datasets"


def test_a_yaml_syntax_error_has_its_line(tmp_path):
    bad = tmp_path / "syntax.yaml"
    bad.write_text("name: x\npipeline: {w: [1, 2\n")
    with pytest.raises(pipesim.InputError) as caught:
        pipesim.load(bad)
    assert caught.value.file == str(bad) and caught.value.line == 3 and caught.value.key is None
    assert "YAML syntax error" in str(caught.value)


def test_a_missing_file():
    with pytest.raises(pipesim.InputError) as caught:
        pipesim.load("no/such/scenario.yaml")
    assert str(caught.value) == "no/such/scenario.yaml: cannot open file"
    assert (caught.value.file, caught.value.line) == ("no/such/scenario.yaml", None)


def test_from_dict_errors_give_lines_of_to_yaml():
    d = pipesim.load(QUICKSTART).to_dict()
    d["platform"]["bandwidth"] = "fast"
    with pytest.raises(pipesim.InputError) as caught:
        pipesim.Scenario.from_dict(d)
    e = caught.value
    assert e.file == "<dict>" and e.key == "platform.bandwidth"
    d["platform"]["bandwidth"] = 10
    text = pipesim.Scenario.from_dict(d).to_yaml().splitlines()
    assert text[e.line - 1].strip() == "bandwidth: 10"


def test_with_values_errors_name_the_change():
    with pytest.raises(pipesim.InputError) as caught:
        pipesim.load(QUICKSTART).with_values({"simulation.datasets": 1})
    e = caught.value
    assert e.file == f"{QUICKSTART} (with simulation.datasets)"
    assert e.key == "simulation.datasets"
    with pytest.raises(pipesim.InputError, match="goes through 'name', which is not a mapping"):
        pipesim.load(QUICKSTART).with_values({"name.first": 1})


def test_location_reads_each_message_form():
    assert location("a.yaml:12: key 'x.y': value '3': bad") == ("a.yaml", 12, "x.y")
    assert location("a.yaml:3:7: YAML syntax error: end of map not found") == ("a.yaml", 3, None)
    assert location("c.yaml: the scenario of run 4 is invalid: c.yaml (run 4: n=5):9: key 'k': value 'v': bad") == \
        ("c.yaml", None, "k")
    assert location("s.yaml:12: key 'platform': p.xml:5: host 'a': bad") == ("s.yaml", 12, "platform")
    assert location("x.xml: cannot open file") == ("x.xml", None, None)
    assert location("--warmup 500: must be below the number of data sets (200)") == (None, None, None)
    assert location("unknown mapper 'nope' (known: a, b)") == (None, None, None)


def test_fields_given_by_the_extension_win_over_the_message():
    e = pipesim.InputError("whatever: it says", file="f.yaml", line=3, key="k")
    assert (e.file, e.line, e.key, str(e)) == ("f.yaml", 3, "k", "whatever: it says")
