"""The optimizer's reach over the bundled corpus may not fall: each program that a
family's rewrite fires on (tests/corpus_reach.json, written by `python bench/reach.py
corpus/*/ --json OUT -- --rocm-version 5.2` and its "where") must still get it, at as many
sites. A fall in reach is a regression even where every output is right (a pass that
refuses everything is safe and useless): a new refusal that costs the corpus a rewrite
shows here, with the program and family. Launch bounds are held to the programs alone:
a fusion that newly joins two kernels leaves one kernel to bound where there were two.
Where reach grows, rewrite the file with the command above and review its diff."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_no_rewrite_family_reaches_fewer_corpus_programs_or_sites(tmp_path, monkeypatch, bench_reach) -> None:
    monkeypatch.setenv("CU2HIP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(ROOT)         # the programs are named as the floor names them, from the root
    reach = bench_reach
    trees = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "corpus").iterdir() if p.is_dir())
    where = reach.measure(reach.programs(trees), ["--rocm-version", "5.2"])["where"]
    floor = json.loads((ROOT / "tests" / "corpus_reach.json").read_text())
    falls = []
    for family, programs in sorted(floor.items()):
        for program, sites in sorted(programs.items()):
            now = where.get(family, {}).get(program, 0)
            if now == 0 or (family != "launch bounds" and now < sites):
                falls.append(f"{family}: {program} {sites} -> {now} sites")
    assert not falls, "reach fell:\n" + "\n".join(falls)
    assert sum(len(p) for p in floor.values()) > 80      # the floor is the corpus's, not an empty file
