"""nvcc's Makefiles as hipcc's: the Make half of the build-file pass (the rules are
declared in translator.passes.buildfiles; this module finds their sites).

Which words are nvcc's is proven, not guessed from names: a recipe command whose first
word is `nvcc` (or a path to it) or a variable that holds it (`NVCC = nvcc`,
`NVCC := $(shell which nvcc)`, `$(NVCC)`);
its other words; and the values of the variables those words expand (`$(NVCCFLAGS)`),
through the variables they expand in turn. `-l` of a CUDA library is translated
wherever it is (a host compiler's link line too)."""

from __future__ import annotations

import re

from translator.buildfiles import MakeFile, Word, words
from translator.passes.buildfiles.flags import FlagReader, Package, library

_NVCC = re.compile(rb"(?:\S*/)?nvcc")
# `NVCC := $(shell which nvcc)`: the variable holds nvcc, found on PATH when make runs.
_FOUND_NVCC = re.compile(rb"\s*\$[({]shell\s+(?:which|command\s+-v|type\s+-[pP])\s+((?:\S*/)?nvcc)\s*[)}]\s*")
_REF = re.compile(rb"\$[({]([A-Za-z0-9_.\-]+)[)}]")
_COMMAND_PREFIX = re.compile(rb"[@+\-]+")
_SEPARATORS = frozenset({b";", b"&&", b"||", b"|"})
_CUDA_TOOLS = {
    b"cuobjdump": "NVIDIA's object dump (ROCm: roc-obj-ls / llvm-objdump)",
    b"nvdisasm": "NVIDIA's disassembler (ROCm: llvm-objdump)",
    b"nvprof": "NVIDIA's profiler (ROCm: rocprof)", b"nsys": "NVIDIA's profiler (ROCm: rocprof)",
    b"ncu": "NVIDIA's kernel profiler (ROCm: rocprof)", b"nvidia-smi": "NVIDIA's device tool (ROCm: rocm-smi)",
    b"ptxas": "NVIDIA's assembler", b"fatbinary": "NVIDIA's fat-binary tool", b"nvlink": "NVIDIA's device linker",
    b"cu++filt": "NVIDIA's demangler (c++filt reads HIP's names)",
    b"compute-sanitizer": "NVIDIA's memory checker (ROCm: address sanitizer builds)",
    b"cuda-memcheck": "NVIDIA's memory checker (ROCm: address sanitizer builds)",
}
_UNMAPPED = {
    b"nvidia-ml": "NVML's API has no HIP counterpart (ROCm SMI's differs)",
    b"nvToolsExt": "NVTX: ROCm's roctx (-lroctx64) has other names (roctxRangePush...)",
    b"cupti": "CUPTI: ROCm's profiling APIs (rocprofiler) differ",
    b"cudadevrt": None,     # removed: see below
}
_LIBRARY_WORD = re.compile(rb"-l([A-Za-z0-9_\-]+)")
_ARCH_VALUE = re.compile(rb"(?:sm|compute)_\d+[af]?")
_OWN_ARCH = re.compile(rb"--offload-arch=\$[({]([A-Za-z0-9_.\-]+)[)}]")
_RDC = re.compile(rb"-dc|--device-c|-rdc=true|--relocatable-device-code=true|-fgpu-rdc")
# Flags of a command that compiles, preprocesses or archives: not a link.
_NOT_LINKING = frozenset({b"-c", b"--compile", b"-dc", b"--device-c", b"-dw", b"--device-w", b"-E", b"-M", b"-MM",
                          b"--preprocess", b"-ptx", b"--ptx", b"-cubin", b"--cubin", b"-fatbin", b"--fatbin",
                          b"-lib", b"--lib", b"-dlink", b"--device-link", b"--genco"})


def _commands(ws: list[Word]) -> list[list[Word]]:
    """A recipe line's words split into its shell commands."""
    out, current = [], []
    for w in ws:
        if w.text.endswith(b";") and w.text != b";" and not w.text.endswith(b"\\;"):
            current.append(Word(w.start, w.end - 1, w.text[:-1]))
            out.append(current)
            current = []
        elif w.text in _SEPARATORS:
            out.append(current)
            current = []
        else:
            current.append(w)
    out.append(current)
    return [c for c in out if c]


class MakeTranslation:
    def __init__(self, emit, f: MakeFile, options, tables):
        self.e, self.f, self.data = emit, f, emit.data
        self.options, self.tables = options, tables
        self.r = emit.rules
        self.flags = FlagReader(options.offload_arch)

    def run(self) -> None:
        data, r = self.data, self.r
        values: dict[bytes, list[list[Word]]] = {}
        compilers: set[bytes] = set()
        for line in self.f.lines:
            if line.kind == "assign" and line.op != b"!=":
                ws = words(data, *line.value)
                values.setdefault(line.name, []).append(ws)
                found = _FOUND_NVCC.fullmatch(data, *line.value)
                if found:
                    compilers.add(line.name)
                    self._compiler(Word(found.start(1), found.end(1), found.group(1)))
                elif ws and _NVCC.fullmatch(ws[0].text):
                    compilers.add(line.name)
                    self._compiler(ws[0])
        # The nvcc contexts: commands of the recipes, and the variables they expand.
        contexts: list[list[Word]] = []
        heads: list[Word] = []
        for line in self.f.lines:
            if line.kind not in ("recipe", "rule", "define") or line.value == (0, 0):
                continue
            # A define's body is a canned recipe or a value: its nvcc commands count alike.
            for command in _commands(words(data, *line.value)):
                head = command[0]
                text = _COMMAND_PREFIX.sub(b"", head.text, count=1) if head.text[:1] in b"@+-" else head.text
                ref = _REF.fullmatch(text)
                if _NVCC.fullmatch(text):
                    self._compiler(Word(head.end - len(text), head.end, text))
                    contexts.append(command[1:])
                    heads.append(head)
                elif ref and ref.group(1) in compilers:
                    contexts.append(command[1:])
                    heads.append(head)
                elif text in _CUDA_TOOLS:
                    self.e.report(r["tool"], head.start, head.end, f"{text.decode()}: {_CUDA_TOOLS[text]}, with no "
                                  "counterpart of that name for AMD GPUs; kept")
        seen: set[bytes] = set()
        todo = [w for c in contexts for w in c]
        flag_values: list[list[Word]] = []
        while todo:
            w = todo.pop(0)
            for m in _REF.finditer(w.text):
                name = m.group(1)
                if name in seen or name in compilers or name not in values:
                    continue
                seen.add(name)
                for ws in values[name]:
                    flag_values.append(ws)
                    todo += ws
        # A variable this file does not expand in an nvcc command (a fragment another Makefile
        # includes, `flags.mk`) whose value holds a flag only nvcc reads: its value is nvcc's.
        for line in self.f.lines:
            if line.kind == "assign" and line.op != b"!=" and line.name not in seen and line.name not in compilers:
                ws = words(data, *line.value)
                if self.flags.nvcc_only(ws) is not None:
                    seen.add(line.name)
                    flag_values.append(ws)
        self.flags.arch_variables = self._arch_variables(values)
        owned: set[bytes] = set()
        for ws in contexts + flag_values:
            actions = self.flags.read(ws)
            owned.update(m.group(1) for a in actions if a.new and (m := _OWN_ARCH.fullmatch(a.new)))
            self.e.flag_actions(actions)
        for name in sorted(owned):
            for ws in values[name]:
                self.e.edit(r["arch"], ws[0].start, ws[0].end, self.flags.arch[0].encode(),
                            f"{name.decode()} = {ws[0].text.decode()} -> {self.flags.arch[0]}: the variable is the "
                            "--offload-arch value of the hipcc commands")
        self._rdc_links(heads, contexts, values)
        self._libraries()

    def _expanded(self, ws: list[Word], values) -> list[bytes]:
        """The texts of `ws` and of the values of the variables they expand, transitively."""
        out, seen, todo = [], set(), list(ws)
        while todo:
            w = todo.pop()
            out.append(w.text)
            for m in _REF.finditer(w.text):
                if m.group(1) not in seen and m.group(1) in values:
                    seen.add(m.group(1))
                    todo += [x for v in values[m.group(1)] for x in v]
        return out

    def _rdc_links(self, heads, contexts, values) -> None:
        """Where compiles make relocatable device code (`-dc`, `-rdc=true`: -fgpu-rdc), the
        link commands need `-fgpu-rdc` too (else `undefined reference to __hip_fatbin`)."""
        expanded = [self._expanded(ws, values) for ws in contexts]
        if not any(_RDC.fullmatch(t) for texts in expanded for t in texts) and \
                not any(a == b"-rdc" and b == b"true" for texts in expanded for a, b in zip(texts, texts[1:])):
            return
        for head, texts in zip(heads, expanded):
            if any(t in _NOT_LINKING or _RDC.fullmatch(t) or t.startswith((b"-rdc", b"--relocatable-device-code"))
                   for t in texts):
                continue
            self.e.insert(self.r["mapped"], head.end, b" -fgpu-rdc",
                          "-fgpu-rdc added to the link: the objects hold relocatable device code (-dc or -rdc=true "
                          "compiles), which hipcc links only with -fgpu-rdc")

    def _arch_variables(self, values) -> dict[bytes, tuple[str, bool]]:
        """The variables whose every definition is one NVIDIA architecture (`ARCH ?= sm_60`):
        what they hold, and whether every use of them is an `-arch` value."""
        out = {}
        for name, defs in values.items():
            if not defs or any(len(ws) != 1 or not _ARCH_VALUE.fullmatch(ws[0].text) for ws in defs):
                continue
            ref = rb"\$[({]" + re.escape(name) + rb"[)}]"
            uses = len(re.findall(ref, self.data))
            as_arch = len(re.findall(rb"(?:-arch|--gpu-architecture)[= ]" + ref, self.data))
            out[name] = (" or ".join(dict.fromkeys(ws[0].text.decode() for ws in defs)), uses == as_arch > 0)
        return out

    def _compiler(self, w: Word) -> None:
        self.e.edit(self.r["compiler"], w.start, w.end, b"hipcc",
                    f"{w.text.decode('utf-8', 'replace')} -> hipcc: HIP's compiler driver")

    def _libraries(self) -> None:
        """-l of CUDA's libraries, in every assignment and recipe."""
        data, r = self.data, self.r
        for line in self.f.lines:
            if line.kind not in ("assign", "recipe", "rule", "define") or line.value == (0, 0):
                continue
            for w in words(data, *line.value):
                m = _LIBRARY_WORD.fullmatch(w.text)
                if not m:
                    continue
                name = m.group(1)
                if name == b"cudadevrt":
                    self.e.remove(r["removed"], w.start, w.end, "-lcudadevrt removed: relocatable device code "
                                  "(-fgpu-rdc) needs no device runtime library")
                    continue
                if name in _UNMAPPED:
                    self.e.report(r["unmapped-library"], w.start, w.end, f"-l{name.decode()}: {_UNMAPPED[name]}")
                    continue
                text = name.decode("utf-8", "replace")
                if text.removesuffix("_static") not in ("cudart", "cuda", "cublas", "cublasLt", "curand", "cufft",
                                                        "cusparse", "cusolver", "nvrtc", "cudnn"):
                    continue
                package = library(text, self.options, self.tables)
                if isinstance(package, str):
                    self.e.report(r["unmapped-library"], w.start, w.end, f"-l{text}: {package}")
                    continue
                assert isinstance(package, Package)
                self.e.edit(r["library"], w.start, w.end, f"-l{package.lib}".encode(),
                            f"-l{text} -> -l{package.lib}" + (" (the HIP runtime)" if package.find is None
                                                            else f" (ROCm's {package.find})"))
