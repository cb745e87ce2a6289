"""Declared precedence: which pass's fix wins an overlap is declared by the pass
(`register_pass(..., precedence=N)`), not decided by pass ids or run order, and the user
rules pass no longer deletes the other passes' fixes."""

from __future__ import annotations

from translator.catalog import NOTE, Rule
from translator.edits import Edit
from translator.mapping import load_tables
from translator.passes import Options, Pass, passes_for
from translator.pipeline import _analyse
from translator.source import SourceFile
from translator.suppress import Policy

A = Rule("X901", "first-writer", NOTE, True, True, "test", "test")
B = Rule("X902", "second-writer", NOTE, True, True, "test", "test")


def _fixes(precedence_a: int, precedence_b: int):
    def write_a(ctx):
        ctx.fix(A, Edit(0, 3, b"aaa"), "a")

    def write_b(ctx):
        ctx.fix(B, Edit(1, 2, b"b"), "b")
    passes = [Pass("a", write_a, ("X901",), (), (), ("hip",), precedence=precedence_a),
              Pass("b", write_b, ("X902",), (), (), ("hip",), precedence=precedence_b)]
    ctx = _analyse(SourceFile("t.cu", b"int x;\n"), Options(), load_tables(), Policy(), passes, 0)
    return ctx


def test_the_fix_of_higher_declared_precedence_wins_an_overlap_whatever_the_run_order():
    ctx = _fixes(0, 5)
    assert [f.rule for f in ctx.fixes] == ["X901", "X902"]          # made in run order
    assert [f.rule for f in ctx.order()] == ["X902", "X901"]        # applied by precedence
    lost, clashed = ctx.overridden([ctx.fixes[0]], [ctx.fixes[1]])
    assert lost == [ctx.fixes[0]] and clashed == []                # overridden: no P004


def test_equal_precedence_keeps_the_run_order_and_an_overlap_is_p004():
    ctx = _fixes(0, 0)
    assert [f.rule for f in ctx.order()] == ["X901", "X902"]
    assert ctx.overridden([ctx.fixes[1]], [ctx.fixes[0]]) == ([], [ctx.fixes[1]])


def test_user_rules_no_longer_delete_other_passes_fixes(tmp_path):
    rules = tmp_path / "team.rules"
    rules.write_text("rename cudaMalloc -> teamMalloc\n", encoding="utf-8")
    options = Options(rules=(str(rules),))
    ctx = _analyse(SourceFile("t.cu", b"void f(void **p) { cudaMalloc(p, 4); }\n"), options, load_tables(),
                   Policy(), passes_for("hip"), 0)
    by_rule = {f.rule for f in ctx.fixes}
    assert "H001" in by_rule and any(f.rule.startswith("U") for f in ctx.fixes)   # hipify's rename is kept
    winner = ctx.order()[0]
    assert winner.rule.startswith("U") and winner.edits[0].text == b"teamMalloc"
    from translator.pipeline import translate
    result = translate("t.cu", b"void f(void **p) { cudaMalloc(p, 4); }\n", options)
    assert b"teamMalloc(p, 4)" in result.output and not [d for d in result.diagnostics if d.code == "P004"]


def test_pass_options_are_declared_once_and_the_cli_configuration_and_settings_derive_from_them(tmp_path):
    import argparse

    import pytest

    from translator.cli import add_pass_options
    from translator.config import ConfigError, load_config
    from translator.passes import all_passes, pass_options
    declared = {o.name: (pid, o) for pid, p in all_passes().items() for o in p.options}
    assert {"fuse": "fusion", "rebalance": "rebalancing", "block-size": "rebalancing",
            "runtime": "runtime-overheads"} == {
        name: pid for name, (pid, _) in declared.items()}
    parser = argparse.ArgumentParser()
    add_pass_options(parser, default_none=False)
    args = parser.parse_args(["--no-fuse", "--block-size", "512"])
    assert (args.fuse, args.rebalance, args.block_size) == (False, True, 512)
    config = tmp_path / "cu2hip.toml"
    config.write_text("fuse = false\nblock-size = 128\n", encoding="utf-8")
    assert load_config(config).passes == {"fuse": False, "block_size": 128}
    config.write_text("block-size = 100\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="'block-size' must be a multiple of 64 from 64 to 1024, not 100"):
        load_config(config)
    assert [o.default for o in pass_options()] == [True, True, 256, True]


def test_the_passes_options_are_their_declarations_and_a_pass_cannot_register_others():
    # translator.options holds them apart from the passes' code (a cached run reads
    # them alone): each registered pass's options are its entry there, every entry a pass's.
    import pytest

    from translator.options import DECLARED, PassOption
    from translator.passes import all_passes, register_pass
    passes = all_passes()
    assert set(DECLARED) <= set(passes)
    assert {pid: p.options for pid, p in passes.items() if p.options} == DECLARED
    with pytest.raises(ValueError, match="its options are not translator.options.DECLARED"):
        register_pass("fusion-copy", rules=(), options=(PassOption("fuse", "fuse", True, "h"),))(lambda ctx: None)
    assert "fusion-copy" not in passes
