"""The facts layer (translator.facts): declared reads, built once per round, only what is read."""

from __future__ import annotations

from pathlib import Path

import pytest

from translator import facts as fl
from translator.facts.call_graph import CallGraph
from translator.frontend import parse_file
from translator.mapping import load_tables
from translator.passes import Options, Pass, passes_for
from translator.pipeline import _analyse, translate
from translator.source import SourceFile
from translator.suppress import Policy

ROOT = Path(__file__).resolve().parent.parent
FUSABLE = b"""__global__ void a(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] += 1; }
__global__ void b(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
__device__ float helper(float v) { return v * 2; }
void f(float *x, int n) {
    a<<<(n + 255) / 256, 256>>>(x, n);
    b<<<(n + 255) / 256, 256>>>(x, n);
    cudaDeviceSynchronize();
}
"""


def _round(data: bytes, passes, options: Options = Options()):
    return _analyse(SourceFile("t.cu", data), options, load_tables(), Policy(), passes, 0)


def test_a_pass_reading_a_fact_it_does_not_declare_fails():
    def reads_the_call_graph(ctx):
        ctx.facts.get(CallGraph)
    undeclared = Pass("reads-undeclared", reads_the_call_graph, (), ("tree",), (), ("hip",))
    with pytest.raises(fl.UndeclaredFact, match="reads-undeclared.*'call-graph'"):
        _round(FUSABLE, [undeclared])
    declared = Pass("reads-declared", reads_the_call_graph, (), ("tree", "call-graph"), (), ("hip",))
    assert "call-graph" in _round(FUSABLE, [declared]).facts.built()


def test_a_later_round_reads_the_inputs_facts_under_the_passs_declarations():
    # Context.of_input: round 0's store, read with the running pass's declared reads (and
    # built there, once); a fact the pass does not declare fails there as in its own round.
    first = _round(FUSABLE, [])
    seen = []

    def reads_the_inputs_kernels(ctx):
        seen.append([k.name for k in ctx.of_input("kernels")])
        ctx.of_input(CallGraph)
    later = SourceFile("t.cu", b"// a rewrite\n" + FUSABLE)
    passes = [Pass("reads-input", reads_the_inputs_kernels, (), ("tree", "kernels"), (), ("hip",))]
    with pytest.raises(fl.UndeclaredFact, match="reads-input.*'call-graph'"):
        _analyse(later, Options(), load_tables(), Policy(), passes, 1, input_facts=first.facts)
    assert seen == [["a", "b"]] and "kernels" in first.facts.built() and "call-graph" not in first.facts.built()


def test_a_pass_reading_the_ir_through_ctx_module_is_checked():
    def reads_launches(ctx):
        return ctx.module.launches
    with pytest.raises(fl.UndeclaredFact, match="'launches'"):
        _round(FUSABLE, [Pass("p", reads_launches, (), ("kernels",), (), ("hip",))])


def test_an_analysis_reached_by_a_plain_function_is_checked_too():
    """ir.elementwise.device_functions reads the call graph through translator.facts.provide:
    a pass calling it must declare the call graph."""
    from translator.ir.elementwise import device_functions

    def helpers(ctx):
        device_functions(ctx.parsed)
    with pytest.raises(fl.UndeclaredFact, match="'call-graph'"):
        _round(FUSABLE, [Pass("p", helpers, (), ("tree",), (), ("hip",))])


def test_a_provider_reads_only_what_it_declares():
    class Greedy(fl.Fact):
        name = "call-graph"     # a stand-in under a known name: it reads "launches" undeclared
        requires = ("tree",)

        @classmethod
        def compute(cls, facts):
            return facts.get("launches")
    store = fl.Facts(parse_file(FUSABLE))
    saved = fl._PROVIDERS.get("call-graph")
    fl._PROVIDERS["call-graph"] = Greedy
    try:
        with pytest.raises(fl.UndeclaredFact, match="the fact 'call-graph' reads the fact 'launches'"):
            store.get("call-graph")
    finally:
        fl._PROVIDERS["call-graph"] = saved


def test_nothing_the_round_does_not_read_is_built():
    """With the hipify pass alone, no analysis of the optimizing passes is built, nor the sync
    points (only the Result's IR, at the end, holds them)."""
    built = _round(FUSABLE, passes_for("hip", "hipify")).facts.built()
    assert built.isdisjoint({"call-graph", "warp", "host-values", "block-agnostic", "elementwise",
                             "launch-blocks", "kernel-launches", "sync_points"})
    everything = _round(FUSABLE, passes_for("hip")).facts.built()
    assert {"launch-blocks", "elementwise", "call-graph", "host-values"} <= everything


def test_each_fact_is_computed_once_per_round(monkeypatch):
    """Rebalancing, fusion and the warp-size pass all reach the call graph: it is built once
    per round (it was cached on the ParsedFile before; now in the round's store)."""
    import translator.ir.calls as calls
    made = []
    real = calls.build_call_graph
    monkeypatch.setattr(calls, "build_call_graph", lambda parsed: made.append(1) or real(parsed))
    result = translate("t.cu", FUSABLE, Options())
    assert result.rounds >= 2 and 0 < len(made) <= result.rounds + 1


def test_a_fact_outside_the_pipeline_is_computed_afresh_or_from_an_open_store():
    import translator.ir.calls as calls
    parsed = parse_file(FUSABLE)
    assert calls.call_graph(parsed) is not calls.call_graph(parsed)
    with fl.active(fl.Facts(parsed)):
        assert calls.call_graph(parsed) is calls.call_graph(parsed)


def test_no_pass_reads_a_fact_it_does_not_declare_over_the_corpus():
    """Every corpus program through every pass, for both targets: the store raises on an
    undeclared read (the goldens run the same strict store)."""
    files = sorted(p for p in (ROOT / "corpus").rglob("*") if p.suffix in (".cu", ".cuh", ".h", ".hpp"))
    assert len(files) > 50
    for target in ("hip", "cuda"):
        for path in files:
            translate(str(path), path.read_bytes(), Options(target=target))


def test_three_valued_answers():
    assert fl.Known(3).known and fl.Known(3).value == 3
    assert not fl.Unknown("written at run time").known and fl.Unknown("x").reason == "x"
    assert not fl.ABSENT.known and repr(fl.ABSENT) == "ABSENT"
