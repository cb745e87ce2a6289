"""Tests for translator.config: validation of every key, located errors, the key locator,
discovery of cu2hip.toml / pyproject.toml, and relative paths. Every expected position is
counted by hand from the text in the test."""

from __future__ import annotations

from pathlib import Path

import pytest

from translator.config import Config, ConfigError, find_config, load, load_config, locate


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def error_of(path: Path) -> str:
    with pytest.raises(ConfigError) as info:
        load_config(path)
    return str(info.value)


# --- every key, valid -------------------------------------------------------------------

ALL_KEYS = '''\
output = "build/hip"
include = ["src/**/*.cu", "include/*.cuh"]
exclude = ["third_party/**"]
rocm-version = "6.2"
select = ["E", "W012", "ALL"]
ignore = ["H"]
rules = ["rules/extra.toml", "/abs/rules.toml"]
target = "cuda"
jobs = 4
roc = true
miopen = false
experimental = true
hip-kernel-execution-syntax = true
only-translated = false
strict = true
'''


def expected_all(path: Path) -> Config:
    root = path.parent
    return Config(path=path, root=root, output=root / "build" / "hip", include=("src/**/*.cu", "include/*.cuh"),
                  exclude=("third_party/**",), rocm_version="6.2", select=("E", "W012", "ALL"), ignore=("H",),
                  rules=(root / "rules" / "extra.toml", Path("/abs/rules.toml")), target="cuda", jobs=4,
                  roc=True, miopen=False, experimental=True, hip_kernel_execution_syntax=True,
                  only_translated=False, strict=True)


def test_all_keys_cu2hip_toml(tmp_path):
    p = write(tmp_path / "cu2hip.toml", ALL_KEYS)
    assert load_config(p) == expected_all(p)


def test_all_keys_pyproject(tmp_path):
    p = write(tmp_path / "pyproject.toml", '[project]\nname = "x"\n\n[tool.cu2hip]\n' + ALL_KEYS + "\n[tool.other]\na = 1\n")
    assert load_config(p) == expected_all(p)


@pytest.mark.parametrize("line, field, value", [
    ('output = "out"', "output", "ROOT/out"),
    ('output = "/abs/out"', "output", Path("/abs/out")),
    ('include = ["*.cu"]', "include", ("*.cu",)),
    ("include = []", "include", ()),
    ('exclude = ["tests/**", "*.h"]', "exclude", ("tests/**", "*.h")),
    ('rocm-version = "6"', "rocm_version", "6"),
    ('rocm-version = "6.2"', "rocm_version", "6.2"),
    ('rocm-version = "5.2.3"', "rocm_version", "5.2.3"),
    ('select = ["ALL"]', "select", ("ALL",)),
    ('select = ["E", "W0", "W01", "H018"]', "select", ("E", "W0", "W01", "H018")),
    ('ignore = ["P003"]', "ignore", ("P003",)),
    ('rules = ["r.toml"]', "rules", ("ROOT/r.toml",)),
    ('target = "hip"', "target", "hip"),
    ('target = "cuda"', "target", "cuda"),
    ("jobs = 1", "jobs", 1),
    ("jobs = 64", "jobs", 64),
    ("roc = true", "roc", True),
    ("miopen = true", "miopen", True),
    ("experimental = false", "experimental", False),
    ("hip-kernel-execution-syntax = false", "hip_kernel_execution_syntax", False),
    ("only-translated = true", "only_translated", True),
    ("strict = false", "strict", False),
])
def test_each_key_valid(tmp_path, line, field, value):
    p = write(tmp_path / "cu2hip.toml", line + "\n")
    fix = (lambda v: tmp_path / v[5:] if isinstance(v, str) and v.startswith("ROOT/") else v)
    value = tuple(map(fix, value)) if isinstance(value, tuple) else fix(value)
    config = load_config(p)
    assert getattr(config, field) == value
    # Nothing else is set.
    assert config == Config(path=p, root=tmp_path, **{field: value})


def test_empty_files(tmp_path):
    p = write(tmp_path / "cu2hip.toml", "# nothing yet\n")
    assert load_config(p) == Config(path=p, root=tmp_path)
    q = write(tmp_path / "sub" / "pyproject.toml", "[tool.cu2hip]\n")
    assert load_config(q) == Config(path=q, root=tmp_path / "sub")


# --- every key, bad: the whole located message -------------------------------------------

BOOLS = ["roc", "miopen", "experimental", "hip-kernel-execution-syntax", "only-translated", "strict"]
RULE_IDS = "rule ids or prefixes such as 'E' or 'W012', or 'ALL'"


@pytest.mark.parametrize("line, message", [
    ("output = 1", "'output' must be a path (a non-empty string), not 1"),
    ('output = ""', "'output' must be a path (a non-empty string), not ''"),
    ('output = ["a"]', "'output' must be a path (a non-empty string), not ['a']"),
    ('include = "src/*.cu"', "'include' must be an array of strings, not 'src/*.cu'"),
    ("include = [[]]", "'include' entries must be non-empty strings, not []"),
    ('exclude = ["a", 2]', "'exclude' entries must be non-empty strings, not 2"),
    ('exclude = [""]', "'exclude' entries must be non-empty strings, not ''"),
    ("rocm-version = 6.2", "'rocm-version' must be a version string like '6.2' or '5.2.3', not 6.2"),
    ("rocm-version = 6", "'rocm-version' must be a version string like '6.2' or '5.2.3', not 6"),
    ('rocm-version = "6.2.3.4"', "'rocm-version' must be a version string like '6.2' or '5.2.3', not '6.2.3.4'"),
    ('rocm-version = "v6.2"', "'rocm-version' must be a version string like '6.2' or '5.2.3', not 'v6.2'"),
    ('rocm-version = "6."', "'rocm-version' must be a version string like '6.2' or '5.2.3', not '6.'"),
    ('rocm-version = ""', "'rocm-version' must be a version string like '6.2' or '5.2.3', not ''"),
    ('select = "E"', "'select' must be an array of strings, not 'E'"),
    ('select = ["E", "e1"]', f"'select' entries must be {RULE_IDS}, not 'e1'"),
    ('select = ["W0123"]', f"'select' entries must be {RULE_IDS}, not 'W0123'"),
    ('ignore = ["all"]', f"'ignore' entries must be {RULE_IDS}, not 'all'"),
    ('ignore = ["EW"]', f"'ignore' entries must be {RULE_IDS}, not 'EW'"),
    ("ignore = [1]", f"'ignore' entries must be {RULE_IDS}, not 1"),
    ('rules = "r.toml"', "'rules' must be an array of strings, not 'r.toml'"),
    ("rules = [true]", "'rules' entries must be non-empty strings, not true"),
    ('target = "rocm"', "'target' must be 'hip' or 'cuda', not 'rocm'"),
    ('target = "HIP"', "'target' must be 'hip' or 'cuda', not 'HIP'"),
    ("target = false", "'target' must be 'hip' or 'cuda', not false"),
    ('jobs = "two"', "'jobs' must be an integer >= 1, not 'two'"),
    ("jobs = 0", "'jobs' must be an integer >= 1, not 0"),
    ("jobs = -3", "'jobs' must be an integer >= 1, not -3"),
    ("jobs = true", "'jobs' must be an integer >= 1, not true"),
    ("jobs = 2.0", "'jobs' must be an integer >= 1, not 2.0"),
    ("jobs = { n = 2 }", "'jobs' must be an integer >= 1, not a table"),
    *[(f'{key} = "yes"', f"'{key}' must be true or false, not 'yes'") for key in BOOLS],
    *[(f"{key} = 1", f"'{key}' must be true or false, not 1") for key in BOOLS],
])
def test_each_key_bad(tmp_path, line, message):
    # The bad key on line 4, indented by two: column 3.
    p = write(tmp_path / "pyproject.toml", f'# cu2hip\n[tool.cu2hip]\n# jobs = 1\n  {line}\n\n[tool.z]\nroc = 1\n')
    assert error_of(p) == f"{p}:4:3: error: {message}"
    q = write(tmp_path / "cu2hip.toml", f'\n\n\n  {line}\n')
    assert error_of(q) == f"{q}:4:3: error: {message}"


def test_error_attributes(tmp_path):
    p = write(tmp_path / "cu2hip.toml", "roc = true\n\tjobs = 0\n")
    with pytest.raises(ConfigError) as info:
        load_config(p)
    err = info.value
    assert (err.path, err.line, err.col, err.key) == (str(p), 2, 2, "jobs")
    assert err.message == "'jobs' must be an integer >= 1, not 0"
    assert str(err) == f"{p}:2:2: error: 'jobs' must be an integer >= 1, not 0"


def test_known_key_as_a_table_header(tmp_path):
    p = write(tmp_path / "pyproject.toml", "[tool.cu2hip]\nroc = true\n\n[tool.cu2hip.jobs]\nn = 2\n")
    assert error_of(p) == f"{p}:4:14: error: 'jobs' must be an integer >= 1, not a table"


# --- unknown keys --------------------------------------------------------------------------

PYPROJECT_UNKNOWN = '''\
[project]
name = "demo"
description = """
[tool.cu2hip]
rocm_versoin = "1"
"""
dependencies = [
    "numpy>=1.0",  # a comment with [tool.cu2hip] and rocm_versoin = 1
    "x[extra]",
]

[tool.cu2hip]
# the version to target
select = [
    "E",   # errors ]
    "W",
]
output = "out[=]"
    rocm_versoin = "6.2"

[tool.other]
x = 1
'''


def test_unknown_key_in_pyproject(tmp_path):
    p = write(tmp_path / "pyproject.toml", PYPROJECT_UNKNOWN)
    assert error_of(p) == (f"{p}:19:5: error: unknown key 'rocm_versoin' in [tool.cu2hip]; "
                           "did you mean 'rocm-version'?")


def test_unknown_key_without_a_near_miss(tmp_path):
    p = write(tmp_path / "pyproject.toml", "[tool.black]\nline-length = 100\n\n[tool.cu2hip]\njobs = 2\ncolour = 'red'\n")
    assert error_of(p) == f"{p}:6:1: error: unknown key 'colour' in [tool.cu2hip]"


def test_unknown_key_in_cu2hip_toml(tmp_path):
    p = write(tmp_path / "cu2hip.toml", '# settings\njobs = 2\nexclude = ["a", "b=[c]"]  # x = 1\nverbose = true\n')
    assert error_of(p) == f"{p}:4:1: error: unknown key 'verbose' in cu2hip.toml"


def test_unknown_table_in_cu2hip_toml(tmp_path):
    p = write(tmp_path / "cu2hip.toml", "jobs = 2\n\n[passes]\nx = 1\n")
    assert error_of(p) == f"{p}:3:2: error: unknown key 'passes' in cu2hip.toml"


def test_unknown_nested_table_in_pyproject(tmp_path):
    p = write(tmp_path / "pyproject.toml", "[tool.cu2hip]\njobs = 2\n\n[tool.cu2hip.passes]\nfoo = 1\n")
    assert error_of(p) == f"{p}:4:14: error: unknown key 'passes' in [tool.cu2hip]"


def test_snake_case_key_suggests_kebab_case(tmp_path):
    p = write(tmp_path / "cu2hip.toml", "only_translated = true\n")
    assert error_of(p) == f"{p}:1:1: error: unknown key 'only_translated' in cu2hip.toml; did you mean 'only-translated'?"


def test_dotted_keys_at_the_top_of_pyproject(tmp_path):
    p = write(tmp_path / "pyproject.toml", 'tool.cu2hip.jobs = 2\ntool.cu2hip.selct = ["E"]\n\n[project]\nname = "x"\n')
    assert error_of(p) == f"{p}:2:13: error: unknown key 'selct' in [tool.cu2hip]; did you mean 'select'?"
    p = write(tmp_path / "pyproject.toml", 'tool.cu2hip.jobs = 2\ntool . cu2hip . target = "x"\n')
    assert error_of(p) == f"{p}:2:17: error: 'target' must be 'hip' or 'cuda', not 'x'"


def test_dotted_key_under_tool(tmp_path):
    p = write(tmp_path / "pyproject.toml", "[tool]\ncu2hip.roc = true\ncu2hip.jobs = 0\n")
    assert error_of(p) == f"{p}:3:8: error: 'jobs' must be an integer >= 1, not 0"


def test_quoted_keys(tmp_path):
    p = write(tmp_path / "pyproject.toml", "[tool.\"cu2hip\"]\nroc = true\n'jobs' = \"2\"\n")
    assert error_of(p) == f"{p}:3:1: error: 'jobs' must be an integer >= 1, not '2'"
    q = write(tmp_path / "cu2hip.toml", 'roc = true\n  "rocm-version" = "six"\n')
    assert error_of(q) == f"{q}:2:3: error: 'rocm-version' must be a version string like '6.2' or '5.2.3', not 'six'"


def test_inline_tables(tmp_path):
    p = write(tmp_path / "pyproject.toml", "tool = { cu2hip = { jobs = 0 } }\n")
    assert error_of(p) == f"{p}:1:21: error: 'jobs' must be an integer >= 1, not 0"


def test_cu2hip_not_a_table(tmp_path):
    p = write(tmp_path / "pyproject.toml", "[project]\nname = 'x'\n[tool]\ncu2hip = 3\n")
    assert error_of(p) == f"{p}:4:1: error: [tool.cu2hip] must be a table, not 3"


# --- TOML syntax and file errors -----------------------------------------------------------

def test_syntax_error_located(tmp_path):
    p = write(tmp_path / "cu2hip.toml", "roc = true\njobs = \n")
    assert error_of(p) == f"{p}:2:8: error: invalid TOML: invalid value"
    q = write(tmp_path / "pyproject.toml", '[tool.cu2hip]\nselect = ["E" "W"]\n')
    assert error_of(q) == f"{q}:2:15: error: invalid TOML: unclosed array"


def test_syntax_error_at_end_of_document(tmp_path):
    p = write(tmp_path / "cu2hip.toml", 'jobs = 2\nselect = ["E",\n')
    err = error_of(p)
    assert err.startswith(f"{p}:3:1: error: invalid TOML: ")
    assert "(at" not in err


def test_not_utf8(tmp_path):
    p = tmp_path / "cu2hip.toml"
    p.write_bytes(b'jobs = 2\noutput = "\xff"\n')
    assert error_of(p) == f"{p}:2:11: error: invalid TOML: not UTF-8"


def test_unreadable_explicit_file(tmp_path):
    p = tmp_path / "missing.toml"
    assert error_of(p) == f"{p}:1:1: error: cannot read: No such file or directory"


def test_explicit_pyproject_without_table(tmp_path):
    p = write(tmp_path / "pyproject.toml", '[project]\nname = "x"\n')
    assert error_of(p) == f"{p}:1:1: error: no [tool.cu2hip] table"


def test_explicit_file_of_another_name_is_top_level(tmp_path):
    p = write(tmp_path / "ci.toml", "jobs = 8\nfoo = 1\n")
    assert error_of(p) == f"{p}:2:1: error: unknown key 'foo' in ci.toml"


# --- the locator -----------------------------------------------------------------------------

LOCATOR_TEXT = '''\
a = "x = 1 [b]"  # c = 2
"quoted.key" = 'lit = [ '
[t]
s = """
[t2]
k = 1 \\""" still a string
""""
m = \'\'\'
[t3]
k = 2\'\'\'
arr = [
  1, # ] comment
  [2, 3],
  { k = 4 },
]
x . y = 1979-05-27 07:32:00
z = { p = { q = "}" }, r = [1.5, 2] }
[[t.aot]]
w = 1
'''


@pytest.mark.parametrize("path, position", [
    (("a",), (1, 1)),
    (("quoted.key",), (2, 1)),
    (("t",), (3, 2)),
    (("t", "s"), (4, 1)),
    (("t", "m"), (8, 1)),
    (("t", "arr"), (11, 1)),
    (("t", "x"), (16, 1)),
    (("t", "x", "y"), (16, 5)),
    (("t", "z"), (17, 1)),
    (("t", "z", "p", "q"), (17, 13)),
    (("t", "z", "r"), (17, 24)),
    (("t", "aot"), (18, 5)),
    (("t2",), (1, 1)),      # only inside a string: not found
    (("t3",), (1, 1)),
    (("t", "k"), (1, 1)),
    (("nope",), (1, 1)),
])
def test_locate(path, position):
    assert locate(LOCATOR_TEXT, path) == position


def test_locate_crlf_and_tabs():
    text = "[tool.cu2hip]\r\n\tjobs = [\r\n 1,\r\n]\r\n\t\tstrict = true\r\n"
    assert locate(text, ("tool", "cu2hip", "jobs")) == (2, 2)
    assert locate(text, ("tool", "cu2hip", "strict")) == (5, 3)


# --- discovery -------------------------------------------------------------------------------

def test_walks_up_from_a_file_and_from_a_folder(tmp_path):
    cfg = write(tmp_path / "proj" / "cu2hip.toml", "jobs = 2\n")
    src = write(tmp_path / "proj" / "src" / "deep" / "k.cu", "")
    assert find_config([src]) == cfg
    assert find_config([tmp_path / "proj" / "src"]) == cfg
    assert find_config([tmp_path / "proj"]) == cfg
    assert find_config([tmp_path / "proj" / "src" / "missing.cu"]) == cfg
    assert find_config([tmp_path]) is None


def test_relative_inputs(tmp_path, monkeypatch):
    cfg = write(tmp_path / "proj" / "cu2hip.toml", "jobs = 2\n")
    write(tmp_path / "proj" / "src" / "k.cu", "")
    monkeypatch.chdir(tmp_path / "proj" / "src")
    assert find_config([Path("k.cu")]) == cfg
    assert find_config([Path("../src/../src/k.cu")]) == cfg
    assert load([Path(".")]).jobs == 2


def test_cu2hip_toml_wins_over_pyproject_in_the_same_folder(tmp_path):
    cfg = write(tmp_path / "cu2hip.toml", "jobs = 2\n")
    write(tmp_path / "pyproject.toml", "[tool.cu2hip]\njobs = 3\n")
    assert find_config([tmp_path / "a.cu"]) == cfg
    assert load([tmp_path / "a.cu"]).jobs == 2


def test_nearer_pyproject_wins_over_farther_cu2hip_toml(tmp_path):
    write(tmp_path / "cu2hip.toml", "jobs = 2\n")
    near = write(tmp_path / "sub" / "pyproject.toml", "[tool.cu2hip]\njobs = 3\n")
    assert find_config([tmp_path / "sub" / "a.cu"]) == near


def test_pyproject_without_table_is_skipped(tmp_path):
    top = write(tmp_path / "pyproject.toml", "[tool.cu2hip]\nroc = true\n")
    write(tmp_path / "sub" / "pyproject.toml", '[project]\nname = "sub"  # not cu2hip\n[tool.ruff]\nx = 1\n')
    write(tmp_path / "sub" / "inner" / "pyproject.toml", '[tool.cu2hipx]\na = 1\n')
    assert find_config([tmp_path / "sub" / "inner" / "a.cu"]) == top
    assert load([tmp_path / "sub" / "inner" / "a.cu"]) == Config(path=top, root=tmp_path, roc=True)


def test_pyproject_with_dotted_keys_counts(tmp_path):
    p = write(tmp_path / "pyproject.toml", "tool.cu2hip.jobs = 5\n")
    assert find_config([tmp_path / "a.cu"]) == p


def test_invalid_pyproject_counts_only_if_it_mentions_the_table(tmp_path):
    top = write(tmp_path / "cu2hip.toml", "jobs = 2\n")
    write(tmp_path / "a" / "pyproject.toml", "[project\nname = 1\n")     # broken, not ours: skipped
    assert find_config([tmp_path / "a" / "k.cu"]) == top
    bad = write(tmp_path / "b" / "pyproject.toml", "[project]\n[tool.cu2hip]\njobs = = 2\n")
    with pytest.raises(ConfigError) as info:
        find_config([tmp_path / "b" / "k.cu"])
    assert str(info.value) == f"{bad}:3:8: error: invalid TOML: invalid value"


def test_a_run_reads_each_configuration_file_once(tmp_path, monkeypatch, capsys):
    # The run's configuration is looked for from the input's folder up, and the input's
    # nearest (translator.settings.Nearest) from the same folders: each file is read once.
    import translator.config
    from translator.cli import main
    top = write(tmp_path / "cu2hip.toml", 'rocm-version = "6.0"\n')
    between = write(tmp_path / "proj" / "pyproject.toml", '[project]\nname = "uses-cu2hip"\n')  # no table
    write(tmp_path / "proj" / "src" / "k.cu", "void f() { cudaDeviceSynchronize(); }\n")
    reads: list[Path] = []
    real = translator.config.read_limited

    def counted(path, *args, **kwargs):
        reads.append(Path(path))
        return real(path, *args, **kwargs)
    monkeypatch.setattr(translator.config, "read_limited", counted)
    assert main(["translate", str(tmp_path / "proj" / "src" / "k.cu"), "--stdout", "--no-cache", "-q"]) == 0
    assert capsys.readouterr().out == "#include <hip/hip_runtime.h>\nvoid f() { hipDeviceSynchronize(); }\n"
    assert sorted(reads) == sorted([top, between])


def test_first_input_decides(tmp_path):
    a = write(tmp_path / "a" / "cu2hip.toml", "jobs = 1\n")
    b = write(tmp_path / "b" / "cu2hip.toml", "jobs = 2\n")
    assert find_config([tmp_path / "a" / "x.cu", tmp_path / "b" / "y.cu"]) == a
    assert find_config([tmp_path / "b" / "y.cu", tmp_path / "a" / "x.cu"]) == b
    # An input that finds nothing does not decide.
    assert find_config([tmp_path / "z.cu", tmp_path / "b" / "y.cu"]) == b
    assert find_config([]) is None


def test_explicit_wins(tmp_path):
    write(tmp_path / "cu2hip.toml", "jobs = 2\n")
    other = write(tmp_path / "conf" / "ci.toml", 'jobs = 7\noutput = "o"\n')
    config = load([tmp_path / "a.cu"], explicit=other)
    assert config == Config(path=other, root=tmp_path / "conf", jobs=7, output=tmp_path / "conf" / "o")


def test_nothing_found_is_an_empty_config(tmp_path):
    assert load([tmp_path / "a.cu"]) == Config()
    assert Config().path is None and Config().include == () and Config().roc is None


# --- relative paths ----------------------------------------------------------------------------

def test_relative_paths_resolve_against_the_config_folder(tmp_path, monkeypatch):
    write(tmp_path / "proj" / "pyproject.toml",
          '[tool.cu2hip]\noutput = "build/../hip"\nrules = ["r/a.toml", "../shared/b.toml", "/etc/c.toml"]\n')
    write(tmp_path / "proj" / "src" / "k.cu", "")
    monkeypatch.chdir(tmp_path / "proj" / "src")
    config = load([Path("k.cu")])
    assert config.root == tmp_path / "proj"
    assert config.output == tmp_path / "proj" / "hip"
    assert config.rules == (tmp_path / "proj" / "r" / "a.toml", tmp_path / "shared" / "b.toml", Path("/etc/c.toml"))


def test_explicit_relative_config_path(tmp_path, monkeypatch):
    write(tmp_path / "conf" / "cu2hip.toml", 'output = "out"\n')
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    config = load([Path("k.cu")], explicit=Path("../conf/cu2hip.toml"))
    assert config.path == tmp_path / "conf" / "cu2hip.toml"
    assert config.output == tmp_path / "conf" / "out"


def test_home_is_expanded(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    p = write(tmp_path / "cu2hip.toml", 'output = "~/hip"\n')
    assert load_config(p).output == tmp_path / "home" / "hip"


# --- describe ----------------------------------------------------------------------------------

def test_describe_rocm_version(tmp_path):
    p = write(tmp_path / "pyproject.toml", '[tool.cu2hip]\nrocm-version = "6.2"\n')
    assert load_config(p).describe_rocm_version() == f"6.2 (from {p})"
    assert Config(rocm_version="5.7").describe_rocm_version() == "5.7"
    assert Config().describe_rocm_version() == "not set"


# --- each file its nearest configuration (as Ruff's) ----------------------------------------

KERNEL = "__global__ void k(int *p) { p[0] = __shfl_down_sync(0xffffffffu, p[0], 1); }\n" \
         "void f(int *p) { k<<<1, 64>>>(p); cudaDeviceSynchronize(); }\n"


def _two_projects(tmp_path: Path) -> tuple[Path, Path]:
    """Project a targets ROCm 5.2 with the hipLaunchKernelGGL syntax; project b ROCm 7.0 and
    ignores the renames (H001)."""
    a, b = tmp_path / "a", tmp_path / "b"
    write(a / "cu2hip.toml", 'rocm-version = "5.2"\nhip-kernel-execution-syntax = true\n')
    write(b / "pyproject.toml", '[tool.cu2hip]\nrocm-version = "7.0"\nignore = ["H001"]\n')
    write(a / "src" / "k.cu", KERNEL)
    write(b / "k.cu", KERNEL)
    return a, b


@pytest.mark.parametrize("jobs", ["1", "4"])
def test_two_projects_in_one_run_each_file_uses_its_nearest_configuration(tmp_path, capsys, jobs):
    from translator.cli import main
    a, b = _two_projects(tmp_path)
    write(b / "more" / "m.cu", KERNEL)       # a third file, so that a pool translates with jobs 4
    out = tmp_path / "out"
    assert main(["translate", str(b), str(a / "src" / "k.cu"), "-o", str(out), "-q", "--jobs", jobs,
                 "--no-cache"]) == 0
    in_a = (out / "a" / "src" / "k.cu").read_text()
    in_b = (out / "b" / "k.cu").read_text()
    # a: ROCm 5.2 has no __shfl_down_sync (the width form), and launches are hipLaunchKernelGGL.
    assert "__shfl_down(p[0], 1, 32)" in in_a and "hipLaunchKernelGGL(k, dim3(1), dim3(64), 0, 0, p)" in in_a
    assert "hipDeviceSynchronize();" in in_a
    # b: ROCm 7.0 keeps the _sync form, the launch syntax stays, and H001's renames are ignored.
    assert "__shfl_down_sync(" in in_b and "k<<<1, 64>>>(p)" in in_b and "cudaDeviceSynchronize();" in in_b
    assert (out / "b" / "more" / "m.cu").read_text() == in_b
    # --config names one file for every input.
    out2 = tmp_path / "out2"
    assert main(["translate", str(b), str(a / "src" / "k.cu"), "-o", str(out2), "-q", "--no-cache",
                 "--config", str(a / "cu2hip.toml")]) == 0
    assert (out2 / "b" / "k.cu").read_text() == in_a
    # A flag still wins over every file's configuration.
    out3 = tmp_path / "out3"
    assert main(["translate", str(a / "src" / "k.cu"), str(b), "-o", str(out3), "-q", "--no-cache",
                 "--rocm-version", "7.0"]) == 0
    assert "__shfl_down_sync(" in (out3 / "a" / "src" / "k.cu").read_text()
    assert "__shfl_down_sync(" in (out3 / "b" / "k.cu").read_text()


def test_a_bad_configuration_of_the_second_project_is_a_located_error(tmp_path, capsys):
    from translator.cli import main
    a, b = _two_projects(tmp_path)
    write(b / "pyproject.toml", '[tool.cu2hip]\nrocm-version = "7.0"\nignore = ["H01x"]\n')
    assert main(["translate", str(a), str(b), "-o", str(tmp_path / "out"), "-q"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{b / 'pyproject.toml'}:3:1: error: 'ignore'"), err
