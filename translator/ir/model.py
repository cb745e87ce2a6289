"""The IR's vocabulary: its frozen dataclasses and the lists of CUDA names it knows.

Spans are byte ranges into the original source.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

# A use of a CUDA API: translator.result's, where a cache hit reads it without the IR.
from translator.result import ApiUse  # noqa: F401 (the IR's vocabulary)

Span = tuple[int, int]

# CUDA's warp-level builtins, the one list of them: the mask-taking forms of CUDA 9 and
# later, and the legacy mask-less ones (HIP's only forms before 6.2).
WARP_SYNC_BUILTINS = frozenset({
    "__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync", "__ballot_sync", "__any_sync",
    "__all_sync", "__match_any_sync", "__match_all_sync", "__activemask", "__syncwarp", "__reduce_add_sync",
    "__reduce_min_sync", "__reduce_max_sync", "__reduce_and_sync", "__reduce_or_sync", "__reduce_xor_sync",
})
WARP_MASKLESS_BUILTINS = frozenset({"__shfl", "__shfl_up", "__shfl_down", "__shfl_xor", "__ballot", "__any",
                                    "__all", "__lane_id"})
# Host calls after which the host and device agree on memory, or that touch device memory:
# a fusion chain cannot cross one.
SYNC_POINTS = frozenset({
    "cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventSynchronize", "cudaThreadSynchronize",
    "cudaMemcpy", "cudaMemcpyAsync", "cudaMemcpy2D", "cudaMemcpy3D", "cudaMemset", "cudaMemsetAsync",
    "cudaMemcpyToSymbol", "cudaMemcpyFromSymbol", "cudaMemcpyToSymbolAsync", "cudaMemcpyFromSymbolAsync",
    "cudaMalloc", "cudaFree", "cudaMallocHost", "cudaFreeHost", "cudaEventRecord", "cudaStreamWaitEvent",
    "cudaEventQuery", "cudaStreamQuery", "cudaGraphLaunch", "cudaLaunchKernel", "cudaLaunchCooperativeKernel",
    "cuCtxSynchronize", "cuStreamSynchronize", "cuMemcpyHtoD", "cuMemcpyDtoH", "cuLaunchKernel",
})


class Expr:
    """An expression of the file: its span and its text (the span's bytes, decoded).

    Made by `Expr.of` from the file's bytes, it reads its text from them when asked and
    keeps none: a launch's arguments hold the launches nested in them, so texts kept
    would make the IR grow with the square of the nesting. Compared (and hashed) as the
    frozen record (text, span) it stands for."""

    __slots__ = ("span", "_text", "_data")

    def __init__(self, text: str, span: Span):
        object.__setattr__(self, "span", span)
        object.__setattr__(self, "_text", text)
        object.__setattr__(self, "_data", None)

    @classmethod
    def of(cls, data: bytes, span: Span) -> Expr:
        """The expression at `span` of the file `data`, its text read when asked."""
        made = cls.__new__(cls)
        object.__setattr__(made, "span", span)
        object.__setattr__(made, "_text", None)
        object.__setattr__(made, "_data", data)
        return made

    @property
    def text(self) -> str:
        if self._text is not None:
            return self._text
        return self._data[self.span[0]:self.span[1]].decode("utf-8", "replace")

    def __setattr__(self, name, value):
        raise AttributeError(f"cannot assign to field '{name}'")

    def __eq__(self, other) -> bool:
        if other.__class__ is not Expr:
            return NotImplemented
        return self.span == other.span and self.text == other.text

    def __hash__(self) -> int:
        return hash(self.span)          # equal expressions have equal spans

    def __repr__(self) -> str:
        return f"Expr(text={self.text!r}, span={self.span!r})"

    def __reduce__(self):
        if self._data is not None:
            return Expr.of, (self._data, self.span)     # (a pickle holds the file's bytes once)
        return Expr, (self._text, self.span)


@dataclass(frozen=True)
class Param:
    name: str
    type_text: str
    qualifiers: tuple[str, ...]
    is_pointer: bool
    span: Span


@dataclass(frozen=True)
class SharedDecl:
    name: str
    type_text: str
    size: str | None          # the array size as written; None for extern (dynamic) or scalars
    is_extern: bool
    span: Span


@dataclass(frozen=True)
class Kernel:
    name: str
    span: Span
    name_span: Span
    template_params: tuple[str, ...]
    params: tuple[Param, ...]
    launch_bounds: tuple[Expr, ...]
    launch_bounds_span: Span | None
    body_span: Span | None    # None for a prototype
    shared: tuple[SharedDecl, ...]
    index_uses: tuple[Expr, ...]          # threadIdx.x, blockDim.y ...
    warp_ops: tuple[Expr, ...]            # calls of warp-level builtins, uses of warpSize
    barriers: tuple[Expr, ...]
    atomics: tuple[Expr, ...]
    in_macro: bool
    clean: bool                            # no parse error inside or around it


@dataclass(frozen=True)
class LaunchSite:
    kernel: str                # the kernel's name as written, without template arguments
    kernel_expr: Expr          # as written, with template arguments
    template_args: str | None
    grid: Expr
    block: Expr
    shared_mem: Expr | None
    stream: Expr | None
    args: tuple[Expr, ...]
    span: Span                 # the whole call expression
    config_span: Span          # <<<...>>>
    function: str | None       # enclosing function
    statement: Span | None     # the statement that holds the launch
    statement_index: int | None  # its position in the enclosing block
    in_macro: bool
    clean: bool


@dataclass(frozen=True)
class SyncPoint:
    name: str
    span: Span
    function: str | None


@dataclass(frozen=True)
class Module:
    path: str
    kernels: tuple[Kernel, ...]
    launches: tuple[LaunchSite, ...]
    api_uses: tuple[ApiUse, ...]
    sync_points: tuple[SyncPoint, ...]

    @cached_property
    def kernels_by_name(self) -> dict[str, list[Kernel]]:
        out: dict[str, list[Kernel]] = {}
        for k in self.kernels:
            out.setdefault(k.name, []).append(k)
        return out

    def launch_sequences(self) -> dict[str | None, list[LaunchSite]]:
        """Launch sites per enclosing host function, in source order."""
        out: dict[str | None, list[LaunchSite]] = {}
        for site in sorted(self.launches, key=lambda s: s.span):
            out.setdefault(site.function, []).append(site)
        return out
