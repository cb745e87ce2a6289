"""H021, H022: library calls whose rocSPARSE or MIOpen counterpart takes other arguments.

What it does:
    With --roc (cuSPARSE to rocSPARSE) or --miopen (cuDNN to MIOpen), rewrites a call
    argument by argument where the counterpart takes its arguments in another order or
    number, as hipify-clang does (its table of functions with argument operations, in
    src/HipifyAction.cpp, with the operation kinds of src/CUDA2HIP_Scripting.h): an
    argument removed (cuDNN's handle before the RNN descriptor calls), moved (cuDNN's
    workspace after `y`), added as a constant (`rocsparse_solve_policy_auto`, a
    `rocsparse_*_stage_*`, `nullptr` for a buffer size rocSPARSE takes and cuSPARSE has
    not), copied (a batch count that is also rocSPARSE's batch stride), replaced by a
    constant (cuSPARSE's policy where rocSPARSE takes an analysis policy) or cast
    (`reinterpret_cast<size_t*>` of cuSPARSE's `int*` buffer size). The name is then
    renamed as usual (H001). Without --roc, hipSPARSE's `hipsparseSpSM_solve` gets the
    external buffer it takes and cuSPARSE 12's call has not (hipify-clang's only rewrite
    for the hip* wrappers). An int buffer size cast to `size_t*` gets H022. Three
    families hipify-clang leaves to a bare rename, which would give rocSPARSE a wrong call
    (`csrgemm2_bufferSizeExt`, `Xcsrgemm2Nnz`, `bsrsm2_analysis`), get their siblings'
    operations. cuDNN's rewrites apply with --miopen (hipify-clang asks for --roc too).
Legal when:
    The counterpart is the one the options select, available in the target ROCm (the
    name's own versions, as for a rename, and the version from which the counterpart
    takes the rewritten arguments: rocSPARSE 3.0 of ROCm 6.0 added `rocsparse_spmv`'s
    stage); the call and its statement parse, and it has the argument count the table
    gives for it.
Not handled:
    Anything else gets H017 (error, no edit): a use that is not a call, a call with another
    argument count (cuSPARSE 11's `cusparseSpSM_solve` took an external buffer), one whose
    statement does not parse, a target older than the rewritten signature, and
    `cudnnGetRNNDescriptor_v6`, whose MIOpen counterpart also returns a bias mode the
    CUDA call has no variable for. Where hipify-clang's rewrite gives a call that does not
    match the counterpart's prototype, cu2hip departs from it and says so in the table
    (`csrsm2`'s algorithm argument, `cusparseSpMV`'s buffer size, the RNN bias mode).
    hipify-clang rewrites no cuBLAS call argument by argument, and neither does cu2hip.
    rocSPARSE's `*_interleaved_batch` calls take an algorithm enum where cuSPARSE takes
    an `int`: a plain integer argument needs a cast by hand in C++.
Example:
    cusparseScsrilu02_analysis(h, m, nnz, d, v, r, c, info, policy, buf)
      -> rocsparse_scsrilu0_analysis(h, m, nnz, d, v, r, c, info,
             rocsparse_analysis_policy_force, rocsparse_solve_policy_auto, buf)
Safety:
    semantic: the constants hipify-clang chose stand for what the CUDA call left implicit
    (rocSPARSE's automatic solve policy for cuSPARSE's level policy, an RNN with biases),
    and a cast buffer size writes 8 bytes where the CUDA code may have reserved 4.
"""

from __future__ import annotations

from dataclasses import dataclass

import tree_sitter as ts

from translator.catalog import NOTE, WARNING, rule
from translator.edits import Edit
from translator.ir import call_of
from translator.ir.nodes import statement_of
from translator.mapping import Version, version_at_least, version_str
from translator.passes import Context
from translator.passes.hipify.calls import arguments
from translator.passes.hipify.renames import ARGUMENTS_DIFFER, counterpart, refusal, rename

LIBRARY_ARGUMENTS = rule(
    "H021", "library-arguments", NOTE, "a library call is rewritten for its counterpart's arguments", """
rocSPARSE (`--roc`) and MIOpen (`--miopen`) take some calls' arguments in another order
or number than cuSPARSE and cuDNN: MIOpen's convolution calls take the workspace last
and the weights before the data, rocSPARSE's triangular solvers take an analysis and a
solve policy, its generic calls a stage and a buffer size. Such a call is rewritten
argument by argument, as hipify-clang does, and its name renamed; a rename alone would
compile into a wrong call, or not compile. The constants added stand for what the CUDA
call left implicit, so review the call.""",
    edits=True, safe=False,
    example="void f(cusparseHandle_t h, cusparseMatDescr_t d, float *v, int *r, int *c, csrilu02Info_t i,\n"
            "       void *b) {\n"
            "  cusparseScsrilu02(h, 4, 8, d, v, r, c, i, CUSPARSE_SOLVE_POLICY_USE_LEVEL, b);\n}\n",
    translation="#include <hip/hip_runtime.h>\n"
                "void f(rocsparse_handle h, rocsparse_mat_descr d, float *v, int *r, int *c, rocsparse_mat_info i,\n"
                "       void *b) {\n"
                "  rocsparse_scsrilu0(h, 4, 8, d, v, r, c, i, rocsparse_solve_policy_auto, b);\n}\n",
    options=("--roc",))
SIZE_CAST = rule(
    "H022", "buffer-size-cast", WARNING, "a buffer size rocSPARSE writes as size_t is passed through an int pointer", """
cuSPARSE's `*_bufferSize` calls write the buffer size through an `int*`, rocSPARSE's
through a `size_t*`; the argument is cast (`reinterpret_cast<size_t*>`), as
hipify-clang does, so that the call compiles, but rocSPARSE then writes 8 bytes where
the CUDA code reserved an `int` of 4. Declare the variable `size_t` (or call the
`_bufferSizeExt` form, which takes a `size_t*` in cuSPARSE too).""",
    example="void f(cusparseHandle_t h, cusparseMatDescr_t d, float *v, int *r, int *c, csric02Info_t i, int *n) {\n"
            "  cusparseScsric02_bufferSize(h, 4, 8, d, v, r, c, i, n);\n}\n",
    translation="#include <hip/hip_runtime.h>\n"
                "void f(rocsparse_handle h, rocsparse_mat_descr d, float *v, int *r, int *c, rocsparse_mat_info i, "
                "int *n) {\n"
                "  rocsparse_scsric0_buffer_size(h, 4, 8, d, v, r, c, i, reinterpret_cast<size_t*>(n));\n}\n",
    options=("--roc",))

REMOVE, MOVE, ADD, COPY, REPLACE, CAST = "remove", "move", "add", "copy", "replace", "cast"


@dataclass(frozen=True)
class Op:
    """One of hipify-clang's argument operations, on the CUDA call's arguments (0-based).
    `add` and `copy` insert before argument `to` (`add`: before `index`), or append when
    that is past the last argument; `move` takes `count` arguments from `index`."""
    kind: str
    index: int
    text: str = ""
    to: int = 0
    count: int = 1


def remove(index: int) -> Op:
    return Op(REMOVE, index)


def move(index: int, to: int, count: int = 1) -> Op:
    return Op(MOVE, index, to=to, count=count)


def add(index: int, text: str) -> Op:
    return Op(ADD, index, text)


def copy(index: int, to: int) -> Op:
    return Op(COPY, index, to=to)


def replace(index: int, text: str) -> Op:
    return Op(REPLACE, index, text)


SIZE_T_CAST = "reinterpret_cast<size_t*>"


def cast(index: int) -> Op:
    return Op(CAST, index, SIZE_T_CAST)


@dataclass(frozen=True)
class Rewrite:
    ops: tuple[Op, ...]
    arguments: int                # the CUDA call's argument count the operations are for
    to_roc: bool = True           # for the rocSPARSE/MIOpen mapping (else for the hip* one)
    since: Version | None = None  # the ROCm whose counterpart takes the rewritten arguments
    note: str = ""                # where cu2hip departs from hipify-clang, and why
    refuse: str = ""              # no rewrite is right: H017 with this reason


SOLVE = "rocsparse_solve_policy_auto"
ANALYSIS = "rocsparse_analysis_policy_force"
PRECISIONS = "SDCZ"
ROCSPARSE_3 = (6, 0)   # rocSPARSE 3.0 (ROCm 6.0): rocsparse_spmv takes a stage
SIBLING_NOTE = "not in hipify-clang's table: the operations hipify-clang applies to the call's siblings"
ALGO_NOTE = ("hipify-clang keeps cuSPARSE's `algo` (0 or 1, a choice rocSPARSE does not offer), which leaves one "
             "argument too many for rocSPARSE's prototype; cu2hip drops it")


def _each(pattern: str, arguments: int, *ops: Op, note: str = "") -> dict[str, Rewrite]:
    """The same operations for the four precisions of a cuSPARSE call."""
    return {pattern.format(p): Rewrite(tuple(ops), arguments, note=note) for p in PRECISIONS}


# hipify-clang's facts (src/HipifyAction.cpp, FuncArgCasts), every function it covers;
# argument counts from cuSPARSE's and cuDNN's prototypes; each result checked against
# rocSPARSE 5.3's installed prototypes (/usr/include/rocsparse) and rocSPARSE 3.x's and
# MIOpen's headers for the calls that changed or that ROCm 5.3 lacks.
REWRITES: dict[str, Rewrite] = {
    **_each("cusparse{}gpsvInterleavedBatch", 11, copy(9, 10)),
    **_each("cusparse{}gpsvInterleavedBatch_bufferSizeExt", 11, copy(9, 10)),
    **_each("cusparse{}gtsvInterleavedBatch", 9, copy(7, 8)),
    **_each("cusparse{}gtsvInterleavedBatch_bufferSizeExt", 9, copy(7, 8)),
    **_each("cusparse{}csrilu02", 10, replace(8, SOLVE)),
    **_each("cusparse{}csrilu02_analysis", 10, replace(8, ANALYSIS), add(9, SOLVE)),
    **_each("cusparse{}csrilu02_bufferSize", 9, cast(8)),
    **_each("cusparse{}csric02_analysis", 10, replace(8, ANALYSIS), add(9, SOLVE)),
    **_each("cusparse{}csric02_bufferSize", 9, cast(8)),
    **_each("cusparse{}bsrilu02", 12, replace(10, SOLVE)),
    **_each("cusparse{}bsrilu02_analysis", 12, replace(10, ANALYSIS), add(11, SOLVE)),
    **_each("cusparse{}bsrilu02_bufferSize", 11, cast(10)),
    **_each("cusparse{}bsric02", 12, replace(10, SOLVE)),
    **_each("cusparse{}bsric02_analysis", 12, replace(10, ANALYSIS), add(11, SOLVE)),
    **_each("cusparse{}bsric02_bufferSize", 11, cast(10)),
    **_each("cusparse{}bsrsm2_bufferSize", 14, cast(13)),
    **_each("cusparse{}csrsm2_solve", 17, remove(1), replace(15, SOLVE), note=ALGO_NOTE),
    **_each("cusparse{}csrsm2_analysis", 17, remove(1), replace(15, ANALYSIS), add(16, SOLVE), note=ALGO_NOTE),
    **_each("cusparse{}csrsm2_bufferSizeExt", 17, remove(1), replace(15, SOLVE), note=ALGO_NOTE),
    **_each("cusparse{}gemvi_bufferSize", 6, cast(5)),
    **_each("cusparse{}csrsv2_solve", 14, replace(12, SOLVE)),
    **_each("cusparse{}csrsv2_analysis", 11, replace(9, ANALYSIS), add(10, SOLVE)),
    **_each("cusparse{}csrsv2_bufferSize", 10, cast(9)),
    **_each("cusparse{}csrmv", 13, add(10, "nullptr")),
    **_each("cusparse{}bsrsv2_solve", 16, replace(14, SOLVE)),
    **_each("cusparse{}bsrsv2_analysis", 13, replace(11, ANALYSIS), add(12, SOLVE)),
    **_each("cusparse{}bsrsv2_bufferSize", 12, cast(11)),
    **_each("cusparse{}csrmm", 16, add(2, "rocsparse_operation_none")),
    **_each("cusparse{}csrgeam2", 20, remove(19)),
    **_each("cusparse{}csrgemm2", 27, add(1, "rocsparse_operation_none, rocsparse_operation_none")),
    # Not in hipify-clang's table, whose rename alone would give rocSPARSE a wrong call:
    # the same operations as their siblings' (csrgemm2's operations, bsrsv2's policies).
    **_each("cusparse{}csrgemm2_bufferSizeExt", 20, add(1, "rocsparse_operation_none, rocsparse_operation_none"),
            note=SIBLING_NOTE),
    **_each("cusparse{}bsrsm2_analysis", 15, replace(13, ANALYSIS), add(14, SOLVE), note=SIBLING_NOTE),
    "cusparseXcsrgemm2Nnz": Rewrite((add(1, "rocsparse_operation_none, rocsparse_operation_none"),), 21,
                                    note=SIBLING_NOTE),
    "cusparseXcsrgeam2Nnz": Rewrite((remove(14),), 15),
    "cusparseCsr2cscEx2_bufferSize": Rewrite(tuple(remove(i) for i in (4, 7, 8, 9, 10, 12, 13)), 15),
    "cusparseSparseToDense": Rewrite((add(4, "nullptr"),), 5),
    "cusparseSparseToDense_bufferSize": Rewrite((add(5, "nullptr"),), 5),
    "cusparseDenseToSparse_bufferSize": Rewrite((add(5, "nullptr"),), 5),
    "cusparseDenseToSparse_analysis": Rewrite((add(4, "nullptr"),), 5),
    "cusparseSpMM_bufferSize": Rewrite((add(10, "rocsparse_spmm_stage_compute"), add(12, "nullptr")), 11),
    "cusparseSpMM": Rewrite((add(10, "rocsparse_spmm_stage_compute, nullptr"),), 11),
    "cusparseSpMM_preprocess": Rewrite((add(10, "rocsparse_spmm_stage_preprocess, nullptr"),), 11),
    "cusparseSpVV_bufferSize": Rewrite((add(7, "nullptr"),), 7),
    "cusparseSpVV": Rewrite((add(6, "nullptr"),), 7),
    "cusparseSpMV_bufferSize": Rewrite((add(9, "rocsparse_spmv_stage_buffer_size"), add(11, "nullptr")), 10,
                                       since=ROCSPARSE_3),
    "cusparseSpMV": Rewrite(
        (add(9, "rocsparse_spmv_stage_compute, nullptr"),), 10, since=ROCSPARSE_3,
        note="hipify-clang adds the stage alone, which leaves rocsparse_spmv (12 parameters from rocSPARSE 3.0) "
             "one argument short; cu2hip also passes a null buffer size, as hipify-clang does for cusparseSpMM"),
    "cusparseSpSV_bufferSize": Rewrite((replace(8, "rocsparse_spsv_stage_buffer_size"), add(10, "nullptr")), 10),
    "cusparseSpSM_analysis": Rewrite((replace(9, "rocsparse_spsm_stage_compute"), add(10, "nullptr")), 11),
    "cusparseSpSM_solve": Rewrite((replace(9, "rocsparse_spsm_stage_compute"), add(10, "nullptr"),
                                   add(11, "nullptr")), 10),
    "cudnnGetConvolutionForwardWorkspaceSize": Rewrite((move(1, 2), move(2, 1), remove(5)), 7),
    "cudnnGetConvolutionBackwardDataWorkspaceSize": Rewrite((move(1, 2), move(2, 1), remove(5)), 7),
    "cudnnFindConvolutionForwardAlgorithmEx": Rewrite((add(13, "true"),), 13),
    "cudnnSetPooling2dDescriptor": Rewrite((remove(2),), 9),
    "cudnnGetPooling2dDescriptor": Rewrite((remove(2),), 9),
    "cudnnSetPoolingNdDescriptor": Rewrite((remove(2),), 7),
    "cudnnGetPoolingNdDescriptor": Rewrite((remove(3),), 8),
    "cudnnSetLRNDescriptor": Rewrite((add(1, "miopenLRNCrossChannel"),), 5),
    "cudnnGetRNNDescriptor_v6": Rewrite(
        (remove(0),), 10,
        refuse="MIOpen's miopenGetRNNDescriptor_V2 also returns the bias mode (before the algorithm), an output the "
               "CUDA call has no variable for; hipify-clang's rewrite drops only the handle, one argument short"),
    "cudnnSetRNNDescriptor_v6": Rewrite(
        (remove(0), add(8, "miopenRNNwithBias")), 10,
        note="hipify-clang drops only the handle, which leaves miopenSetRNNDescriptor_V2 without its bias mode; "
             "cuDNN's v6 RNNs always have biases, so cu2hip passes miopenRNNwithBias"),
    "cudnnSoftmaxForward": Rewrite((move(1, 9, 2),), 9),
    "cudnnSoftmaxBackward": Rewrite((move(1, 11, 2),), 11),
    "cudnnConvolutionForward": Rewrite((move(8, 13, 2),), 13),
    "cudnnConvolutionBackwardData": Rewrite((move(2, 4, 2), move(4, 2, 2), move(8, 13, 2)), 13),
    "cudnnRNNBackwardWeights": Rewrite((move(9, 11, 2), move(11, 9, 2)), 15),
}
# Rewrites for the hip* wrappers (no --roc): hipSPARSE's SpSM_solve takes the external
# buffer cuSPARSE 12's has not (hipify-clang adds it, null: hipSPARSE does not use it).
HIP_REWRITES: dict[str, Rewrite] = {
    "cusparseSpSM_solve": Rewrite((add(10, "nullptr"),), 10, to_roc=False),
}
NAMES = frozenset(REWRITES) | frozenset(HIP_REWRITES)


class Consumed:
    """The byte ranges a rewrite removed or replaced this round: the names in them are not
    renamed (a moved argument is renamed where it lands, in the next round)."""

    def __init__(self) -> None:
        self.ranges: list[tuple[int, int]] = []

    def covers(self, span: tuple[int, int]) -> bool:
        return any(lo <= span[0] and span[1] <= hi for lo, hi in self.ranges)


def rewrite(ctx: Context, use, consumed: Consumed) -> bool:
    """Rewrite one use's call if a table entry covers it; True when the use needs nothing
    more (rewritten and renamed, or refused with H017)."""
    entry = use.entry
    if entry is None:
        return False
    name, _added, _deprecated, _removed, _experimental, where = counterpart(entry, ctx)
    to_roc = where != "HIP"
    found = (REWRITES if to_roc else HIP_REWRITES).get(use.api.name)
    if found is None or refusal(ctx, entry) is not None:
        return False          # a plain rename, or rename() reports why there is none
    cuda = use.api.name
    start, end = use.api.span

    def refuse(why: str) -> bool:
        ctx.report(ARGUMENTS_DIFFER, start, f"'{cuda}' -> '{name}': {where} takes different arguments; not "
                   f"translated: {why}", end=end, subject=cuda)
        return True
    call = call_of(use.node)
    if call is None:
        return refuse("not a call, so its arguments cannot be rewritten")
    frag = use.fragment
    statement = statement_of(call, frag)[0]
    if not frag.clean(call) or (statement is not None and not frag.clean(statement)):
        return refuse("the call's statement does not parse")
    args = arguments(call)
    if len(args) != found.arguments:
        return refuse(f"the call has {len(args)} arguments where the rewrite is for {found.arguments}")
    if found.refuse:
        return refuse(found.refuse)
    if found.since is not None and not version_at_least(ctx.options.rocm_version, found.since):
        return refuse(f"'{name}' takes the rewritten arguments from ROCm {version_str(found.since)}; the target "
                      f"is ROCm {version_str(ctx.options.rocm_version)}")
    edits, removed, casts = _edits(ctx, frag, call, args, found.ops)
    why = f"{cuda} -> {name}: {_describe(found.ops, len(args))}" + (f" ({found.note})" if found.note else "")
    fix = ctx.fix(LIBRARY_ARGUMENTS, edits, why)
    if fix is None:
        return refuse("the argument rewrite (H021) is turned off here")
    consumed.ranges += removed
    rename(ctx, use.api.span, entry, node=use.node)
    for lo, hi in casts:
        ctx.report(SIZE_CAST, lo, f"'{cuda}': {name} writes a size_t through argument "
                   f"'{ctx.source.data[lo:hi].decode('utf-8', 'replace')}', which the CUDA call passes as int*",
                   end=hi, fix=fix, subject=cuda)
    return True


def _edits(ctx: Context, frag, call: ts.Node, args: list[ts.Node], ops: tuple[Op, ...]):
    """The edits of hipify-clang's operations on the call's text: insertions before an
    argument (or before the closing parenthesis) and deletions of whole arguments with
    the separator after them (or before them, for the last). Returns (edits, the deleted
    or replaced ranges, the cast arguments' ranges)."""
    data = ctx.source.data
    spans = [frag.span(a) for a in args]
    n = len(spans)
    close = frag.span(call.child_by_field_name("arguments"))[1] - 1   # the ')'
    edits: list[Edit] = []
    removed: list[tuple[int, int]] = []
    casts: list[tuple[int, int]] = []

    def insert_before(to: int, text: bytes) -> None:
        if to < n:
            edits.append(Edit(spans[to][0], spans[to][0], text + b", "))
        else:
            edits.append(Edit(close, close, b", " + text))

    def delete(first: int, last: int) -> None:
        """Arguments first..last with the separator after them (for the last argument,
        the separator before them)."""
        if last + 1 < n:
            lo, hi = spans[first][0], spans[last + 1][0]
        elif first > 0:
            lo, hi = _comma_after(call, frag, spans[first - 1][1]), close
        else:
            lo, hi = spans[first][0], close
        edits.append(Edit(lo, hi, b""))
        removed.append((lo, hi))

    for op in sorted(ops, key=lambda o: o.index):
        i = op.index
        if op.kind == ADD:
            insert_before(i, op.text.encode())
        elif op.kind == REPLACE:
            edits.append(Edit(spans[i][0], spans[i][1], op.text.encode()))
            removed.append(spans[i])
        elif op.kind == CAST:
            edits += [Edit(spans[i][0], spans[i][0], op.text.encode() + b"("), Edit(spans[i][1], spans[i][1], b")")]
            casts.append(spans[i])
        elif op.kind == REMOVE:
            delete(i, i)
        elif op.kind in (MOVE, COPY):
            last = i + op.count - 1
            insert_before(op.to, data[spans[i][0]:spans[last][1]])
            if op.kind == MOVE:
                delete(i, last)
    return tuple(edits), removed, casts


def _comma_after(call: ts.Node, frag, offset: int) -> int:
    """Where the comma after the argument ending at `offset` starts."""
    for child in call.child_by_field_name("arguments").children:
        lo = frag.span(child)[0]
        if child.type == "," and lo >= offset:
            return lo
    return offset


def _describe(ops: tuple[Op, ...], n: int) -> str:
    words = []
    for op in sorted(ops, key=lambda o: o.index):
        at = f"argument {op.index + 1}"
        if op.kind == ADD:
            words.append(f"{op.text} added " + (f"before {at}" if op.index < n else "at the end"))
        elif op.kind == REPLACE:
            words.append(f"{at} replaced by {op.text}")
        elif op.kind == CAST:
            words.append(f"{at} cast with {op.text}")
        elif op.kind == REMOVE:
            words.append(f"{at} removed")
        else:
            what = at if op.count == 1 else f"arguments {op.index + 1}-{op.index + op.count}"
            where_to = f"before argument {op.to + 1}" if op.to < n else "to the end"
            words.append(f"{what} {'moved' if op.kind == MOVE else 'copied'} {where_to}")
    return "; ".join(words)
