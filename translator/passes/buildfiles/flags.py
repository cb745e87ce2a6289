"""nvcc's command line as hipcc's, and CUDA's libraries as ROCm's: the tables both build
languages read (translator.passes.buildfiles.cmake and .make).

`FlagReader.read(words)` walks the words of one nvcc context (a command after `nvcc`, a
variable's value that such a command expands, CMAKE_CUDA_FLAGS) and returns what to do
with each flag: `Action`s with the bytes to write (None: report only), the rule and the
reason. A flag that takes a value takes the next word when it is not written `-f=v`.
Every flag is known (kept as it is, since hipcc is clang and reads it alike), mapped,
removed (no meaning for hipcc), or reported: with no equivalent, or unknown. Words that
are not flags (files, `$(VARS)`) are left to the caller's other rules.

`library(name, options)` maps a CUDA library (`cublas`, `cudart`...) through the same
header table the sources' includes are translated with (translator/data/headers.tsv:
cublas_v2.h -> hipblas.h, or rocblas.h with --roc), to its ROCm package: the name
`find_package` takes, the imported target and the `-l` name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from translator.buildfiles import Word
from translator.mapping import Version, version_at_least

# CUDA library (as -l and CUDA:: name it) -> the header whose table entry says what HIP has.
LIBRARY_HEADERS = {
    "cublas": "cublas_v2.h", "cublasLt": "cublasLt.h", "curand": "curand.h", "cufft": "cufft.h",
    "cusparse": "cusparse.h", "cusolver": "cusolverDn.h", "nvrtc": "nvrtc.h", "cudnn": "cudnn.h",
}
# The HIP runtime's own: linked by hipcc and by CMake's HIP language itself.
RUNTIME_LIBRARIES = frozenset({"cudart", "cudart_static", "cuda", "cuda_driver"})
# ROCm's packages (the folder or stem of the header the table gives): find_package name,
# imported target, -l name. hiprtc is in the HIP runtime before ROCm 6.
PACKAGES = {
    "hipblas": ("hipblas", "roc::hipblas", "hipblas"), "rocblas": ("rocblas", "roc::rocblas", "rocblas"),
    "hipblaslt": ("hipblaslt", "roc::hipblaslt", "hipblaslt"), "hiprand": ("hiprand", "hip::hiprand", "hiprand"),
    "rocrand": ("rocrand", "roc::rocrand", "rocrand"), "hipfft": ("hipfft", "hip::hipfft", "hipfft"),
    "hipsparse": ("hipsparse", "roc::hipsparse", "hipsparse"),
    "rocsparse": ("rocsparse", "roc::rocsparse", "rocsparse"),
    "hipsolver": ("hipsolver", "roc::hipsolver", "hipsolver"),
    "rocsolver": ("rocsolver", "roc::rocsolver", "rocsolver"), "miopen": ("miopen", "MIOpen", "MIOpen"),
    "hiprtc": ("hiprtc", "hiprtc::hiprtc", "hiprtc"),
}
_ROC_APIS = frozenset({"API_BLAS", "API_RAND", "API_SPARSE", "API_SOLVER"})
HIPRTC_OWN_LIBRARY: Version = (6, 0)


@dataclass(frozen=True)
class Package:
    find: str | None        # find_package's name; None: the HIP runtime's own (hip)
    target: str             # the imported target
    lib: str                # the -l name


HIP_RUNTIME = Package(None, "hip::host", "amdhip64")


def library(name: str, options, tables) -> Package | str:
    """The ROCm package for a CUDA library, or why there is none (a message)."""
    base = name.removesuffix("_static")
    if base in RUNTIME_LIBRARIES or name in RUNTIME_LIBRARIES:
        return HIP_RUNTIME
    header = LIBRARY_HEADERS.get(base)
    if header is None:
        return f"no ROCm library is known for CUDA's {name}"
    entry = tables.header(header)
    if entry is None or entry.unsupported:
        return f"{header} has no HIP counterpart in the mapping tables"
    to_roc = (options.roc and entry.api in _ROC_APIS) or (options.miopen and entry.api == "API_DNN")
    chosen = (entry.roc or entry.hip) if to_roc else entry.hip
    if not chosen:
        return f"{header} has no HIP counterpart in the mapping tables"
    folder, _, name = chosen.rpartition("/")
    # The package is the header's folder (hiprand/hiprand.h), or its name (hipblas.h,
    # hip/hiprtc.h: the HIP runtime's folder holds several packages' headers).
    stem = (folder if folder and folder != "hip" else name.removesuffix(".h")).lower()
    if stem == "hiprtc" and not version_at_least(options.rocm_version, HIPRTC_OWN_LIBRARY):
        return HIP_RUNTIME
    if stem not in PACKAGES:
        return f"{header} maps to {chosen}, which no ROCm package installs"
    return Package(*PACKAGES[stem])


@dataclass(frozen=True)
class Action:
    start: int
    end: int
    new: bytes | None       # None: report, keep
    kind: str               # "compiler", "mapped", "arch", "removed", "no-equivalent", "unknown", "library",
    #                         "unmapped-library"
    message: str


# Flags that take a value (as the next word when not written -f=value).
_VALUED = frozenset("""
-o --output-file -x --x -arch --gpu-architecture -code --gpu-code -gencode --generate-code -ccbin --compiler-bindir
-Xcompiler --compiler-options -Xlinker --linker-options -Xptxas --ptxas-options -Xnvlink --nvlink-options
-t --threads -I --include-path -L --library-path -D --define-macro -U --undefine-macro -l --library -isystem
-include --pre-include -maxrregcount --maxrregcount -std --std -rdc --relocatable-device-code -cudart --cudart
-MF -MT -odir --output-directory -default-stream --default-stream -keep-dir --keep-dir -Werror --Werror
-diag-suppress --diag-suppress -ftz --ftz -prec-div --prec-div -prec-sqrt --prec-sqrt -fmad --fmad
-split-compile --split-compile -ldir --library-directory --optimize
""".split())
# Kept as they are: hipcc (clang) reads them as nvcc does.
_KEPT_EXACT = frozenset("""
--version -V --help -h
-c -g -E -M -MM -MD -MMD -MP -shared -w -v -m64 -pg -O -Xlinker -isystem -include -MF -MT -fPIC -fpic -pthread
--offload-arch -Rpass-analysis -save-temps -gline-tables-only -ggdb --genco
""".split())
_KEPT_PREFIX = (b"-O", b"-I", b"-D", b"-U", b"-L", b"-l", b"-std=", b"-W", b"-f", b"-Wl,")
_KEPT_VALUED = frozenset({"-o", "-I", "-D", "-U", "-L", "-l", "-Xlinker", "-isystem", "-include", "-MF", "-MT"})
_LONG_SAME = {"--output-file": "-o", "--include-path": "-I", "--library-path": "-L", "--define-macro": "-D",
              "--undefine-macro": "-U", "--library": "-l", "--pre-include": "-include", "--compile": "-c",
              "--std": "-std", "--debug": "-g", "--shared": "-shared", "--preprocess": "-E",
              "--optimize": "-O", "--disable-warnings": "-w", "--output-directory": None}
_REMOVED = {
    "-lineinfo": "hipcc keeps no separate line table: `-g` (or `-gline-tables-only`) gives line information",
    "--generate-line-info": "hipcc keeps no separate line table: `-g` (or `-gline-tables-only`) gives line "
                            "information",
    "-t": "nvcc's parallel compilation of several GPU targets; hipcc has no such option",
    "--threads": "nvcc's parallel compilation of several GPU targets; hipcc has no such option",
    "--expt-relaxed-constexpr": "clang's HIP calls constexpr host functions from device code without it",
    "-expt-relaxed-constexpr": "clang's HIP calls constexpr host functions from device code without it",
    "--expt-extended-lambda": "clang's HIP takes __device__ lambdas without it",
    "-expt-extended-lambda": "clang's HIP takes __device__ lambdas without it",
    "--extended-lambda": "clang's HIP takes __device__ lambdas without it",
    "-extended-lambda": "clang's HIP takes __device__ lambdas without it",
    "-Wno-deprecated-gpu-targets": "a warning of nvcc's about NVIDIA architectures",
    "-cudart": "hipcc links the HIP runtime (libamdhip64) itself",
    "--cudart": "hipcc links the HIP runtime (libamdhip64) itself",
    "-ccbin": "hipcc compiles host code with its own clang: there is no host compiler to choose",
    "--compiler-bindir": "hipcc compiles host code with its own clang: there is no host compiler to choose",
    "--forward-unknown-to-host-compiler": "hipcc is the host compiler: every flag reaches it",
    "-forward-unknown-to-host-compiler": "hipcc is the host compiler: every flag reaches it",
    "--allow-unsupported-compiler": "hipcc compiles host code with its own clang",
    "-allow-unsupported-compiler": "hipcc compiles host code with its own clang",
    "--display-error-number": "nvcc's diagnostic numbering; clang names its warnings",
    "-src-in-ptx": "there is no PTX",
    "--source-in-ptx": "there is no PTX",
    "-code": "the GPU code is chosen by --offload-arch",
    "--gpu-code": "the GPU code is chosen by --offload-arch",
}
_NO_EQUIVALENT = {
    "-G": "device debugging: hipcc's `-g` gives device debug information, with no flag to turn device "
          "optimization off alone; replace it by hand",
    "--device-debug": "device debugging: hipcc's `-g` gives device debug information, with no flag to turn "
                      "device optimization off alone; replace it by hand",
    "-maxrregcount": "hipcc has no register cap per file: bound the kernels with __launch_bounds__",
    "--maxrregcount": "hipcc has no register cap per file: bound the kernels with __launch_bounds__",
    "-Xptxas": "ptxas is NVIDIA's assembler: AMD's backend takes no such options",
    "--ptxas-options": "ptxas is NVIDIA's assembler: AMD's backend takes no such options",
    "-Xnvlink": "nvlink is NVIDIA's device linker: hipcc links device code with -fgpu-rdc",
    "--nvlink-options": "nvlink is NVIDIA's device linker: hipcc links device code with -fgpu-rdc",
    "-dlink": "hipcc links relocatable device code in the final link (with -fgpu-rdc): there is no separate "
              "device-link step",
    "--device-link": "hipcc links relocatable device code in the final link (with -fgpu-rdc): there is no "
                     "separate device-link step",
    "-lib": "hipcc makes no static library: archive the objects with ar",
    "--lib": "hipcc makes no static library: archive the objects with ar",
    "-ptx": "there is no PTX for AMD GPUs",
    "--ptx": "there is no PTX for AMD GPUs",
    "-cubin": "there is no cubin for AMD GPUs (hipcc --genco writes a code object)",
    "--cubin": "there is no cubin for AMD GPUs (hipcc --genco writes a code object)",
    "-fatbin": "there is no fatbin for AMD GPUs (hipcc --genco writes a code object)",
    "--fatbin": "there is no fatbin for AMD GPUs (hipcc --genco writes a code object)",
    "-Werror": "nvcc's kinds of warnings (cross-execution-space-call...) have no clang counterpart",
    "--Werror": "nvcc's kinds of warnings (cross-execution-space-call...) have no clang counterpart",
    "-diag-suppress": "nvcc's diagnostic numbers have no clang counterpart: use -Wno-<name>",
    "--diag-suppress": "nvcc's diagnostic numbers have no clang counterpart: use -Wno-<name>",
    "-keep-dir": "hipcc's -save-temps writes into the working folder",
    "--keep-dir": "hipcc's -save-temps writes into the working folder",
    "-dlto": "device link-time optimization has no hipcc flag of that name",
    "-split-compile": "nvcc's split compilation has no hipcc counterpart",
    "--split-compile": "nvcc's split compilation has no hipcc counterpart",
}
# nvcc's --use_fast_math: clang's -ffast-math for the device side only (hipcc 5.2 checked:
# __FAST_MATH__ defined in the device compile, not in the host one).
FAST_MATH = b"-Xarch_device -ffast-math"
_ARCH = re.compile(rb"(?:sm|compute|lto)_\d+[af]?|native|all|all-major")
_VARIABLE = re.compile(rb"\$[({]([A-Za-z0-9_.\-]+)[)}]")
# Flags of nvcc's alone (with those of _REMOVED and _NO_EQUIVALENT that no host compiler takes).
_NVCC_ONLY = frozenset({"-gencode", "--generate-code", "--use_fast_math", "-use_fast_math", "-rdc",
                        "--relocatable-device-code", "-dc", "--device-c", "-Xcompiler", "--compiler-options",
                        "--resource-usage", "-res-usage", "--default-stream", "-default-stream", "--ftz", "-ftz",
                        "--prec-div", "-prec-div", "--prec-sqrt", "-prec-sqrt", "--fmad", "-fmad", "-Xcudafe"})
_FOREACH = re.compile(rb"\$[({]foreach\s+[A-Za-z0-9_]+\s*,[^,]*,(.*)[)}]", re.S)
_ARCH_FLAG = re.compile(rb"(?:^|\s)(?:-gencode|--generate-code|-arch|--gpu-architecture)[=\s]")
_GENCODE = re.compile(rb"arch=(?:compute|sm|lto)_\d+[af]?,code=(?:\[?[a-z_0-9,]+\]?)")


def _split(word: bytes) -> tuple[bytes, bytes | None]:
    """`--opt=value` -> (b"--opt", b"value"); `-tN`-like forms are not split."""
    if word.startswith(b"-") and b"=" in word:
        name, value = word.split(b"=", 1)
        return name, value
    return word, None


def rewritten(data: bytes, start: int, end: int, actions: list[Action]) -> bytes:
    """data[start:end] with the actions' replacements applied (a removal takes the blank
    before its word): the text of flags moved elsewhere, translated as they would be in place."""
    out, pos = [], start
    for act in sorted(actions, key=lambda a: a.start):
        if act.new is None:
            continue
        cut = act.start
        if act.new == b"":
            while cut > pos and data[cut - 1:cut] in b" \t":
                cut -= 1
        out += [data[pos:cut], act.new]
        pos = act.end
    out.append(data[pos:end])
    return b"".join(out).strip()


class FlagReader:
    """Reads the flags of nvcc contexts; `arch` is what -arch and -gencode become."""

    def __init__(self, arch: tuple[str, ...], arch_variables: dict[bytes, tuple[str, bool]] | None = None):
        self.arch = arch
        # Make variables whose every definition is an NVIDIA architecture: name -> (what they
        # hold, shown; whether every use is an -arch value, so that the variable itself now
        # names the AMD target and `--offload-arch=$(NAME)` keeps the user's knob).
        self.arch_variables = arch_variables or {}

    @staticmethod
    def nvcc_only(ws: list[Word]) -> Word | None:
        """The first of `ws` that only nvcc reads (no host compiler takes it: `-gencode`,
        `--expt-relaxed-constexpr`, `-arch=sm_80`, `-Xptxas`, `-rdc`...), or None: a value
        that holds one is a list of nvcc's flags, wherever it is expanded."""
        for w in ws:
            name, value = _split(w.unquoted)
            flag = name.decode("utf-8", "replace")
            if flag in _NVCC_ONLY or flag in _REMOVED and flag not in ("-t", "-code") or \
                    flag in _NO_EQUIVALENT and flag not in ("-G", "-Werror", "-lib") or \
                    flag in ("-arch", "--gpu-architecture") and value is not None and _ARCH.fullmatch(value):
                return w
        return None

    def arch_flags(self) -> bytes:
        return b" ".join(b"--offload-arch=" + a.encode() for a in self.arch)

    def read(self, ws: list[Word]) -> list[Action]:
        """Actions on the flags among `ws` (one command's words or one value's): the first
        architecture flag becomes --offload-arch, later ones are removed."""
        out: list[Action] = []
        arch_done = False
        i = 0
        while i < len(ws):
            w = ws[i]
            text = w.unquoted
            foreach = _FOREACH.fullmatch(text)
            if foreach and _ARCH_FLAG.search(foreach.group(1)):
                # `$(foreach sm,60 70,-gencode arch=compute_$(sm),code=sm_$(sm))`: NVIDIA architectures
                out.append(Action(w.start, w.end, b"" if arch_done else self.arch_flags(), "arch",
                                  f"'{text.decode('utf-8', 'replace')}' makes NVIDIA architecture flags: "
                                  + ("the AMD target is given once, by the --offload-arch above" if arch_done else
                                     f"the AMD target is {', '.join(self.arch)} (offload-arch in the configuration)")))
                arch_done = True
                i += 1
                continue
            if not text.startswith(b"-") or text == b"-" or text.startswith(b"-$"):
                i += 1
                continue
            name, value = _split(text)
            flag = name.decode("utf-8", "replace")
            takes = flag in _VALUED
            end_word = w
            if takes and value is None and i + 1 < len(ws):
                end_word = ws[i + 1]
                value = end_word.unquoted
                i += 1
            i += 1
            act = self._one(flag, value, text, w, end_word, arch_done)
            if act is not None:
                arch_done = arch_done or act.kind == "arch"
                out.append(act)
        return out

    def _one(self, flag: str, value: bytes | None, text: bytes, w: Word, last: Word, arch_done: bool) -> Action | None:
        start, end = w.start, last.end
        shown = text.decode("utf-8", "replace") + ("" if last is w else " " + last.text.decode("utf-8", "replace"))
        v = (value or b"").decode("utf-8", "replace")

        def act(new, kind, message):
            return Action(start, end, new, kind, message)

        if flag in ("-arch", "--gpu-architecture") and value is not None and _VARIABLE.fullmatch(value) \
                and _VARIABLE.fullmatch(value).group(1) in self.arch_variables:
            name = _VARIABLE.fullmatch(value).group(1)
            held, own = self.arch_variables[name]
            if arch_done:
                return act(b"", "arch", f"'{shown}': the AMD target is given once, by the --offload-arch above")
            if own and len(self.arch) == 1:
                return act(b"--offload-arch=" + value, "arch", f"'{shown}' ({name.decode()} is {held}) is an NVIDIA "
                           f"architecture: {name.decode()} now names the AMD target, {self.arch[0]} (offload-arch "
                           "in the configuration), and `make " + name.decode() + "=...` still chooses it")
            return act(self.arch_flags(), "arch", f"'{shown}' ({name.decode()} is {held}) is an NVIDIA architecture: "
                       f"the AMD target is {', '.join(self.arch)} (offload-arch in the configuration)")
        if flag in ("-arch", "--gpu-architecture", "-gencode", "--generate-code"):
            ok = value is not None and (_ARCH.fullmatch(value) if flag in ("-arch", "--gpu-architecture")
                                        else _GENCODE.fullmatch(value.strip(b'"')))
            if not ok:
                return act(None, "unknown", f"'{shown}': an NVIDIA architecture cu2hip cannot read; kept")
            if arch_done:
                return act(b"", "arch", f"'{shown}': the AMD target is given once, by the --offload-arch above")
            return act(self.arch_flags(), "arch", f"'{shown}' is an NVIDIA architecture: the AMD target is "
                       f"{', '.join(self.arch)} (offload-arch in the configuration)")
        if flag in _REMOVED:
            return act(b"", "removed", f"'{shown}' removed: {_REMOVED[flag]}")
        if flag in _NO_EQUIVALENT:
            if flag in ("-Xptxas", "--ptxas-options") and value in (b"-v", b"--verbose"):
                return act(b"-Rpass-analysis=kernel-resource-usage", "mapped",
                           f"'{shown}' -> -Rpass-analysis=kernel-resource-usage: hipcc's report of registers "
                           "and occupancy per kernel")
            return act(None, "no-equivalent", f"'{shown}' has no hipcc equivalent ({_NO_EQUIVALENT[flag]}); kept")
        if flag in ("--use_fast_math", "-use_fast_math"):
            return act(FAST_MATH, "mapped", f"'{shown}' -> {FAST_MATH.decode()}: nvcc's fast math is the device "
                       "code's; hipcc's -ffast-math alone would apply to host code too (a host std::isnan check "
                       "would change)")
        if flag in ("--resource-usage", "-res-usage"):
            return act(b"-Rpass-analysis=kernel-resource-usage", "mapped",
                       f"'{shown}' -> -Rpass-analysis=kernel-resource-usage: hipcc's report of registers and "
                       "occupancy per kernel")
        if flag in ("-rdc", "--relocatable-device-code"):
            if v in ("true", "false"):
                new = b"-fgpu-rdc" if v == "true" else b"-fno-gpu-rdc"
                return act(new, "mapped", f"'{shown}' -> {new.decode()}: relocatable device code")
            return act(None, "unknown", f"'{shown}': a value cu2hip does not know; kept")
        if flag in ("-dc", "--device-c"):
            return act(b"-fgpu-rdc -c", "mapped", f"'{shown}' -> -fgpu-rdc -c: compile relocatable device code")
        if flag in ("-Xcompiler", "--compiler-options"):
            if value is None:
                return act(None, "unknown", f"'{shown}' with no value; kept")
            inner = value.strip(b'"\'')
            parts = [p for chunk in inner.split(b",") for p in chunk.split()]
            new = b" ".join(parts)
            return act(new, "mapped", f"'{shown}' -> {new.decode('utf-8', 'replace')}: hipcc compiles host code "
                       "itself, so host flags are its own")
        if flag == "--linker-options" and value is not None:
            return act(b"-Wl," + value, "mapped", f"'{shown}' -> -Wl,{v}")
        if flag in ("-x", "--x") and value is not None:
            if value == b"cu":
                return act(b"-x hip", "mapped", f"'{shown}' -> -x hip: the sources are HIP")
            return None if flag == "-x" else act(b"-x " + value, "mapped", f"'{shown}' -> -x {v}")
        if flag in ("-keep", "--keep"):
            return act(b"-save-temps", "mapped", f"'{shown}' -> -save-temps: keep the intermediate files")
        if flag in ("-default-stream", "--default-stream") and v in ("per-thread", "legacy"):
            new = f"-fgpu-default-stream={v}".encode()
            return act(new, "mapped", f"'{shown}' -> {new.decode()}")
        if flag in ("-ftz", "--ftz") and v in ("true", "false"):
            new = b"-fgpu-flush-denormals-to-zero" if v == "true" else b"-fno-gpu-flush-denormals-to-zero"
            return act(new, "mapped", f"'{shown}' -> {new.decode()}")
        if flag in ("-prec-div", "--prec-div", "-prec-sqrt", "--prec-sqrt") and v in ("true", "false"):
            if v == "true":
                return act(b"", "removed", f"'{shown}' removed: IEEE division and square root are hipcc's default")
            return act(b"-fno-hip-fp32-correctly-rounded-divide-sqrt", "mapped",
                       f"'{shown}' -> -fno-hip-fp32-correctly-rounded-divide-sqrt")
        if flag in ("-fmad", "--fmad") and v in ("true", "false"):
            new = b"-ffp-contract=fast" if v == "true" else b"-ffp-contract=off"
            return act(new, "mapped", f"'{shown}' -> {new.decode()}: fused multiply-add contraction")
        if flag in _LONG_SAME:
            short = _LONG_SAME[flag]
            if short is None:
                return act(None, "no-equivalent", f"'{shown}' has no hipcc equivalent; kept")
            if flag == "--optimize":
                new = b"-O" + (value or b"")
            elif flag == "--std":
                new = b"-std=" + (value or b"")
            else:
                new = short.encode() + (b"" if value is None else (b" " + value if short in ("-o", "-include")
                                                                   else value))
            return act(new, "mapped", f"'{shown}' -> {new.decode('utf-8', 'replace')}")
        if flag == "-std" and value is not None and last is not w:
            return act(b"-std=" + value, "mapped", f"'{shown}' -> -std={v}")
        if flag in _KEPT_EXACT or flag in _KEPT_VALUED or text.startswith(_KEPT_PREFIX):
            return None
        return act(None, "unknown", f"'{shown}': an nvcc flag cu2hip does not know; kept, check that hipcc takes it")
