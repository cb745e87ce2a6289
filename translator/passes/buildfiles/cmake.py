"""CMake's CUDA as CMake's HIP language: the CMake half of the build-file pass (the rules
are declared in translator.passes.buildfiles; this module finds their sites)."""

from __future__ import annotations

import re

from translator.buildfiles import Arg, CMakeFile, Command, Word, genexes, words
from translator.passes.buildfiles.flags import HIP_RUNTIME, Action, FlagReader, Package, library, rewritten

HIP_LANGUAGE_SINCE = (3, 21)
# CMAKE_CUDA_<X> -> CMAKE_HIP_<X> (CMake's HIP language has the same variable).
_SAME_VARIABLES = frozenset("""
ARCHITECTURES FLAGS FLAGS_INIT FLAGS_DEBUG FLAGS_RELEASE FLAGS_RELWITHDEBINFO FLAGS_MINSIZEREL STANDARD
STANDARD_REQUIRED EXTENSIONS COMPILER COMPILER_ID COMPILER_VERSION COMPILER_LAUNCHER VISIBILITY_PRESET
COMPILE_FEATURES OUTPUT_EXTENSION
""".split())
_NO_HIP_VARIABLE = {
    "HOST_COMPILER": "the HIP language compiles host code with its own clang",
    "SEPARABLE_COMPILATION": "CMake's HIP language has no separable compilation switch: add -fgpu-rdc to the "
                             "compile and link options",
    "RESOLVE_DEVICE_SYMBOLS": "there is no separate device link with HIP",
    "RUNTIME_LIBRARY": "the HIP language links the HIP runtime itself",
    "TOOLKIT_INCLUDE_DIRECTORIES": "hip::host carries HIP's include folders",
}
# Target and source properties: CUDA_<X> -> HIP_<X>.
_SAME_PROPERTIES = frozenset({"ARCHITECTURES", "STANDARD", "STANDARD_REQUIRED", "EXTENSIONS", "VISIBILITY_PRESET"})
_NO_HIP_PROPERTY = {
    "SEPARABLE_COMPILATION": "CMake's HIP language has no such property: add -fgpu-rdc to the target's compile "
                             "and link options",
    "RESOLVE_DEVICE_SYMBOLS": "there is no separate device link with HIP",
    "RUNTIME_LIBRARY": "the HIP language links the HIP runtime itself",
    "PTX_COMPILATION": "there is no PTX for AMD GPUs",
}
_PROPERTY_COMMANDS = frozenset({"set_target_properties", "set_property", "get_target_property", "get_property",
                                "set_source_files_properties", "get_source_file_property", "define_property"})
# FindCUDA's and FindCUDAToolkit's result variables that name a library.
_LIBRARY_VARIABLES = {
    "CUDA_LIBRARIES": "cudart", "CUDA_CUDART_LIBRARY": "cudart", "CUDA_cudart_static_LIBRARY": "cudart",
    "CUDA_CUDA_LIBRARY": "cuda", "CUDA_CUBLAS_LIBRARIES": "cublas", "CUDA_cublas_LIBRARY": "cublas",
    "CUDA_cublasLt_LIBRARY": "cublasLt", "CUDA_curand_LIBRARY": "curand", "CUDA_cufft_LIBRARY": "cufft",
    "CUDA_CUFFT_LIBRARIES": "cufft", "CUDA_cusparse_LIBRARY": "cusparse", "CUDA_cusolver_LIBRARY": "cusolver",
    "CUDA_nvrtc_LIBRARY": "nvrtc",
}
_FOUND_VARIABLES = frozenset({"CUDA_FOUND", "CUDAToolkit_FOUND"})
_FLAG_LISTS = frozenset({"CUDA_NVCC_FLAGS", "CUDA_NVCC_FLAGS_DEBUG", "CUDA_NVCC_FLAGS_RELEASE"})
_CUDA_NAME = re.compile(rb"(?<![A-Za-z0-9_])(CMAKE_CUDA_([A-Za-z0-9_]+)|CUDAToolkit_[A-Za-z0-9_]+|CUDA_[A-Za-z0-9_]+"
                        rb"|CUDA::([A-Za-z0-9_]+))")
_GENEX_LANGUAGE = re.compile(rb"\$<(?:COMPILE|LINK)_LANGUAGE:([A-Za-z,]*)>|\$<(?:COMPILE|LINK)_LANG_AND_ID:"
                             rb"(CUDA,[A-Za-z,]*)")
_CUDA_GENEX = re.compile(rb"\$<\$<COMPILE_LANGUAGE:(?:CUDA|HIP)>:")
_ARCH_VALUE = re.compile(rb"\d+(?:-real|-virtual)?|native|all|all-major")
_SOURCE_OPTIONS = {"add_executable": {b"WIN32", b"MACOSX_BUNDLE", b"EXCLUDE_FROM_ALL"},
                   "add_library": {b"STATIC", b"SHARED", b"MODULE", b"OBJECT", b"EXCLUDE_FROM_ALL"},
                   "cuda_add_executable": {b"WIN32", b"MACOSX_BUNDLE", b"EXCLUDE_FROM_ALL"},
                   "cuda_add_library": {b"STATIC", b"SHARED", b"MODULE", b"EXCLUDE_FROM_ALL"},
                   "target_sources": {b"PRIVATE", b"PUBLIC", b"INTERFACE"}}
_CUDA_COMMANDS = {"cuda_add_executable": b"add_executable", "cuda_add_library": b"add_library",
                  "cuda_include_directories": b"include_directories"}
_OPTION_COMMANDS = frozenset({"target_compile_options", "add_compile_options", "target_link_options",
                              "add_link_options"})
_LINK_COMMANDS = frozenset({"target_link_libraries", "link_libraries"})


def _arg_words(arg: Arg, data: bytes):
    return words(data, *arg.inner, semicolons=True)


class CMakeTranslation:
    def __init__(self, emit, f: CMakeFile, options, tables):
        self.e, self.f, self.data = emit, f, emit.data
        self.options, self.tables = options, tables
        self.r = emit.rules
        self.flags = FlagReader(options.offload_arch)
        self.packages: list[Package] = []      # the ROCm packages the file's targets need, in order

    # --- facts of the whole file

    def _facts(self) -> None:
        self.lists: dict[bytes, list[bytes]] = {}
        self.cu_globs: set[bytes] = set()
        self.marked: set[bytes] = set()
        self.found: set[str] = set()
        self.host_linked: set[bytes] = set()     # targets that link hip::host or what becomes it
        self.plain_links: set[bytes] = set()     # targets linked with the plain (keyword-less) signature
        for cmd in self.f.commands:
            name, args = cmd.lower, cmd.args
            if name == "set" and args:
                self.lists[args[0].text] = [w.text for a in args[1:] for w in _arg_words(a, self.data)]
            elif name == "list" and len(args) > 2 and args[0].text.upper() == b"APPEND":
                self.lists.setdefault(args[1].text, []).extend(w.text for a in args[2:]
                                                               for w in _arg_words(a, self.data))
            elif name == "file" and len(args) > 2 and args[0].text.upper() in (b"GLOB", b"GLOB_RECURSE"):
                patterns = [a.text for a in args[2:] if a.text not in (b"CONFIGURE_DEPENDS", b"LIST_DIRECTORIES")]
                if patterns and all(p.endswith(b".cu") for p in patterns):
                    self.cu_globs.add(args[1].text)
            elif name == "set_source_files_properties":
                texts = [a.text for a in args]
                if b"LANGUAGE" in texts and texts.index(b"LANGUAGE") + 1 < len(texts) and \
                        texts[texts.index(b"LANGUAGE") + 1] in (b"HIP", b"CUDA"):
                    self.marked.update(t for t in texts[:texts.index(b"PROPERTIES")] if b"PROPERTIES" in texts)
            elif name == "find_package" and args:
                self.found.add(args[0].text.decode("utf-8", "replace"))
            elif name == "target_link_libraries" and args:
                texts = [a.text for a in args[1:]]
                if texts and texts[0] not in (b"PRIVATE", b"PUBLIC", b"INTERFACE", b"LINK_PRIVATE", b"LINK_PUBLIC",
                                               b"LINK_INTERFACE_LIBRARIES"):
                    self.plain_links.add(args[0].text)
                if any(t in (b"hip::host", b"hip::device", b"CUDA::cudart", b"CUDA::cudart_static",
                             b"${CUDA_LIBRARIES}") for t in texts):
                    self.host_linked.add(args[0].text)
        for cmd in self.f.commands:
            for a in cmd.args:
                for m in _CUDA_NAME.finditer(a.text):
                    lib = m.group(3).decode() if m.group(3) else _LIBRARY_VARIABLES.get(m.group(1).decode())
                    if lib is None and cmd.lower in _LINK_COMMANDS:
                        continue
                    if lib is not None:
                        self._need(lib)
            if cmd.lower in _LINK_COMMANDS:
                for a in cmd.args[1:]:
                    lib = a.text.removeprefix(b"-l").decode("utf-8", "replace")
                    if _bare_library(lib):
                        self._need(lib)

    def _need(self, lib: str) -> None:
        package = library(lib, self.options, self.tables)
        if isinstance(package, Package) and package.find and package not in self.packages:
            self.packages.append(package)

    # --- the commands

    def run(self) -> None:
        self._facts()
        uses_cuda = any(self._mentions_cuda(cmd) for cmd in self.f.commands)
        if not uses_cuda:
            return
        self.languages = any(a.text == b"CUDA" for cmd in self.f.commands
                             if cmd.lower in ("project", "enable_language", "check_language") for a in cmd.args)
        for cmd in self.f.commands:
            name = cmd.lower
            if name == "set" and cmd.args and cmd.args[0].text == b"CMAKE_CUDA_COMPILER" and \
                    any(b"nvcc" in a.text for a in cmd.args[1:]):
                start, end = _whole_line(self.data, cmd.start, cmd.end)
                self.e.edit(self.r["variable"], start, end, b"",
                            "CMAKE_CUDA_COMPILER names nvcc: removed, CMake finds the HIP compiler (ROCm's clang) "
                            "itself (CMAKE_HIP_COMPILER on the command line chooses another)")
                continue
            if name == "cmake_minimum_required":
                self._minimum(cmd)
            elif name == "project":
                self._languages(cmd, cmd.args[1:])
            elif name in ("enable_language", "check_language"):
                self._languages(cmd, cmd.args)
            elif name == "find_package" and cmd.args and cmd.args[0].text in (b"CUDA", b"CUDAToolkit"):
                self._find_package(cmd)
                continue
            elif name in _CUDA_COMMANDS:
                self.e.edit(self.r["cuda-command"], cmd.start, cmd.name_end, _CUDA_COMMANDS[name],
                            f"{cmd.name.decode()} is FindCUDA's: CMake's HIP language builds HIP sources with "
                            f"{_CUDA_COMMANDS[name].decode()}")
                if name != "cuda_include_directories":
                    self._cuda_add_options(cmd)
            elif name.startswith("cuda_"):
                self.e.report(self.r["cuda-command-unknown"], cmd.start, cmd.name_end,
                              f"{cmd.name.decode()}: a FindCUDA command cu2hip does not translate; CMake's HIP "
                              "language has no such command")
            if name in _SOURCE_OPTIONS:
                self._sources(cmd)
            self._names(cmd)
            self._flags(cmd)

    def _mentions_cuda(self, cmd: Command) -> bool:
        if cmd.lower in _SOURCE_OPTIONS and any(a.text.endswith(b".cu") for a in cmd.args):
            return True
        return cmd.lower.startswith("cuda_") or any(
            a.text == b"CUDA" or b"CUDA_" in a.text or b"CUDA::" in a.text or b"CUDAToolkit" in a.text
            or b"COMPILE_LANGUAGE:CUDA" in a.text for a in cmd.args)

    def _minimum(self, cmd: Command) -> None:
        for a in cmd.args:
            m = re.match(rb"(\d+)\.(\d+)(?:\.\d+)*", a.text)
            if a.text != b"VERSION" and m:
                if (int(m.group(1)), int(m.group(2))) < HIP_LANGUAGE_SINCE:
                    self.e.edit(self.r["minimum"], a.inner[0], a.inner[0] + m.end(), b"3.21",
                                f"CMake's HIP language needs CMake 3.21 (the file asks for {m.group().decode()})")
                return

    def _languages(self, cmd: Command, args) -> None:
        for a in args:
            if a.text == b"CUDA":
                self.e.edit(self.r["language"], a.start, a.end, b"HIP",
                            "CMake's HIP language compiles the sources that were CUDA (CMake >= 3.21, ROCm's "
                            "hip-lang package)")

    def _find_package(self, cmd: Command) -> None:
        texts = [a.text for a in cmd.args]
        required = b"REQUIRED" in texts
        line_start = self.data.rfind(b"\n", 0, cmd.start) + 1
        indent = self.data[line_start:cmd.start]
        indent = indent if not indent.strip() else b""
        nl = b"\r\n" if self.data[cmd.end:cmd.end + 2] == b"\r\n" else b"\n"
        found = [b"find_package(hip" + (b" REQUIRED" if required else b"") + b")"]
        for p in self.packages:
            if p.find not in self.found:
                found.append(f"find_package({p.find}{' REQUIRED' if required else ''})".encode())
        names = ", ".join(p.find for p in self.packages if p.find not in self.found)
        # FindCUDA (`find_package(CUDA)`) compiled .cu files without the CUDA language; their
        # HIP sources need the HIP language, which no project() of this file enables.
        language = cmd.args[0].text == b"CUDA" and not self.languages
        if language:
            found.append(b"enable_language(HIP)")
        self.e.edit(self.r["find-package"], cmd.start, cmd.end, (nl + indent).join(found),
                    f"{cmd.args[0].text.decode()} is CUDA's: hip-config gives hip::host"
                    + (f", and {names} the libraries the file links" if names else "")
                    + ("; FindCUDA needed no CUDA language, CMake's HIP sources need enable_language(HIP)"
                       if language else ""))

    def _cuda_add_options(self, cmd: Command) -> None:
        """FindCUDA's `OPTIONS flags...` (nvcc flags of the target) move to
        target_compile_options of the HIP sources, translated."""
        texts = [a.text for a in cmd.args]
        if b"OPTIONS" not in texts or not cmd.args:
            return
        k = texts.index(b"OPTIONS")
        at, last = cmd.args[k], cmd.args[-1]
        flags = [w for a in cmd.args[k + 1:] for w in _arg_words(a, self.data)]
        actions = self.flags.read(flags)
        for act in actions:
            if act.new is None:
                self.e.flag_actions([act])
        moved = rewritten(self.data, cmd.args[k + 1].start, last.end, actions) if k + 1 < len(cmd.args) else b""
        cut = at.start
        while cut > 0 and self.data[cut - 1:cut] in b" \t":
            cut -= 1
        self.e.edit(self.r["cuda-command"], cut, last.end, b"",
                    "FindCUDA's OPTIONS: nvcc flags of the target, moved to target_compile_options")
        if moved:
            line_start = self.data.rfind(b"\n", 0, cmd.start) + 1
            indent = self.data[line_start:cmd.start] if not self.data[line_start:cmd.start].strip() else b""
            nl = b"\r\n" if b"\r\n" in self.data else b"\n"
            self.e.insert(self.r["cuda-command"], cmd.end, nl + indent + b"target_compile_options(" + cmd.args[0].text
                          + b" PRIVATE $<$<COMPILE_LANGUAGE:HIP>:" + moved.replace(b" ", b";") + b">)",
                          "FindCUDA's OPTIONS as the target's compile options for its HIP sources")

    def _sources(self, cmd: Command) -> None:
        """LANGUAGE HIP on the .cu sources of a target, which CMake would give to CUDA."""
        args = list(cmd.args[1:])
        skip = _SOURCE_OPTIONS[cmd.lower]
        if args and args[0].text in (b"IMPORTED", b"ALIAS", b"INTERFACE") and cmd.lower != "target_sources":
            return
        names: list[bytes] = []
        for a in args:
            if a.text in skip or a.text == b"OPTIONS":
                if a.text == b"OPTIONS":
                    break
                continue
            for w in _arg_words(a, self.data):
                t = w.text
                ref = re.fullmatch(rb"\$\{([A-Za-z0-9_]+)\}", t)
                if ref:
                    var = ref.group(1)
                    if var in self.cu_globs:
                        names.append(t)
                    elif var in self.lists:
                        names += [n for n in self.lists[var] if n.endswith(b".cu")]
                    else:
                        self.e.report(self.r["sources-unknown"], w.start, w.end,
                                      f"{t.decode('utf-8', 'replace')}: sources this file does not list; its .cu "
                                      "files need `set_source_files_properties(... PROPERTIES LANGUAGE HIP)`")
                elif t.endswith(b".cu"):
                    names.append(t)
        todo = [n for i, n in enumerate(names) if n not in self.marked and n not in names[:i]]
        if names and cmd.lower != "target_sources":
            self._host_sources(cmd, args, skip)
        if not todo:
            return
        self.marked.update(todo)
        line_start = self.data.rfind(b"\n", 0, cmd.start) + 1
        indent = self.data[line_start:cmd.start]
        indent = indent if not indent.strip() else b""
        nl = b"\r\n" if b"\r\n" in self.data else b"\n"
        shown = b" ".join(todo)
        self.e.insert(self.r["source-language"], cmd.end,
                      nl + indent + b"set_source_files_properties(" + shown + b" PROPERTIES LANGUAGE HIP)",
                      f"CMake gives .cu files to the CUDA language: {shown.decode('utf-8', 'replace')} are HIP")

    def _host_sources(self, cmd: Command, args, skip) -> None:
        """A target of HIP sources with C or C++ sources too (`util.cpp`): those are compiled as
        C++, and where they include the HIP runtime (a `<cuda_runtime.h>` translated) they need
        hip::host's definitions (`__HIP_PLATFORM_AMD__`) and include folders: linked, where the
        file finds the hip package, else reported."""
        target = cmd.args[0].text
        host = []
        for a in args:
            if a.text in skip:
                continue
            for w in _arg_words(a, self.data):
                ref = re.fullmatch(rb"\$\{([A-Za-z0-9_]+)\}", w.text)
                listed = self.lists.get(ref.group(1), []) if ref else [w.text]
                host += [n for n in listed if re.search(rb"\.(?:cpp|cc|cxx|c\+\+|C|c)\Z", n)]
        if not host or target in self.host_linked:
            return
        shown = b" ".join(dict.fromkeys(host)).decode("utf-8", "replace")
        if not self.found & {"CUDA", "CUDAToolkit", "hip"}:
            self.e.report(self.r["target"], cmd.start, cmd.end,
                          f"{target.decode('utf-8', 'replace')} compiles {shown} as C++: where they include the HIP "
                          "runtime they need hip::host (find_package(hip) and target_link_libraries(... hip::host))",
                          severity="warning")
            return
        keyword = b"" if target in self.plain_links else b"PRIVATE "
        line_start = self.data.rfind(b"\n", 0, cmd.start) + 1
        indent = self.data[line_start:cmd.start] if not self.data[line_start:cmd.start].strip() else b""
        nl = b"\r\n" if b"\r\n" in self.data else b"\n"
        self.host_linked.add(target)
        self.e.insert(self.r["target"], cmd.end, nl + indent + b"target_link_libraries(" + target + b" " + keyword
                      + b"hip::host)", f"{shown} of a HIP target compile as C++: hip::host gives them the HIP "
                      "runtime's definitions and include folders")

    def _names(self, cmd: Command) -> None:
        """CMAKE_CUDA_* variables, CUDA_* properties, CUDA:: targets, FindCUDA's variables,
        `LANGUAGE CUDA` and the language generator expressions."""
        data, r = self.data, self.r
        property_command = cmd.lower in _PROPERTY_COMMANDS
        texts = [a.text for a in cmd.args]
        for k, a in enumerate(cmd.args):
            if a.text == b"CUDA" and k and texts[k - 1] == b"LANGUAGE":
                self.e.edit(r["language"], a.start, a.end, b"HIP", "the source is HIP")
            base = a.inner[0]
            for m in _GENEX_LANGUAGE.finditer(a.text):
                if m.group(2):
                    s = base + m.start(2)
                    ids = [b"Clang" if x == b"NVIDIA" else x for x in m.group(2).split(b",")[1:]]
                    self.e.edit(r["language"], s, s + len(m.group(2)), b",".join([b"HIP", *ids]),
                                "the sources are HIP, compiled by clang")
                    continue
                langs = m.group(1).split(b",")
                if b"CUDA" in langs:
                    s = base + m.start(1)
                    self.e.edit(r["language"], s, s + len(m.group(1)),
                                b",".join(b"HIP" if x == b"CUDA" else x for x in langs), "the sources are HIP")
            for m in _CUDA_NAME.finditer(a.text):
                s, e = base + m.start(), base + m.end()
                whole = m.group(1).decode()
                if m.group(2):
                    self._variable(m.group(2).decode(), s, e, whole, cmd, k)
                elif m.group(3):
                    self._target(m.group(3).decode(), s, e, whole)
                else:
                    self._cuda_variable(whole, s, e, a, m, cmd, property_command)

    def _variable(self, suffix: str, s: int, e: int, whole: str, cmd: Command, k: int) -> None:
        r = self.r
        if suffix in _SAME_VARIABLES:
            self.e.edit(r["variable"], s, e, f"CMAKE_HIP_{suffix}".encode(),
                        f"{whole} -> CMAKE_HIP_{suffix}: the HIP language's own")
            if suffix == "ARCHITECTURES" and cmd.lower == "set" and k == 0:
                self._arch_values(cmd.args[1:], whole)
        elif suffix in _NO_HIP_VARIABLE:
            self.e.report(r["no-hip-counterpart"], s, e, f"{whole} has no HIP counterpart: "
                          f"{_NO_HIP_VARIABLE[suffix]}")
        else:
            self.e.report(r["unknown-variable"], s, e, f"{whole}: a CUDA variable cu2hip does not know; kept")

    def _target(self, name: str, s: int, e: int, whole: str) -> None:
        package = library(name, self.options, self.tables)
        if isinstance(package, str):
            self.e.report(self.r["unmapped-library"], s, e, f"{whole}: {package}")
            return
        self.e.edit(self.r["target"], s, e, package.target.encode(),
                    f"{whole} -> {package.target}" + (" (the HIP runtime)" if package is HIP_RUNTIME else
                                                      f" (ROCm's {package.find})"))

    def _cuda_variable(self, whole: str, s: int, e: int, a: Arg, m, cmd: Command, property_command: bool) -> None:
        r, data = self.r, self.data
        suffix = whole.removeprefix("CUDA_")
        if property_command and whole.startswith("CUDA_") and suffix in _SAME_PROPERTIES:
            self.e.edit(r["variable"], s, e, f"HIP_{suffix}".encode(), f"{whole} -> HIP_{suffix}: the HIP "
                        "language's property")
            if suffix == "ARCHITECTURES":
                texts = [x.text for x in cmd.args]
                k = texts.index(a.text)
                values = cmd.args[k + 1:] if cmd.lower == "set_property" else cmd.args[k + 1:k + 2]
                self._arch_values(values, whole)
            return
        if property_command and whole.startswith("CUDA_") and suffix in _NO_HIP_PROPERTY:
            self.e.report(r["no-hip-counterpart"], s, e, f"{whole} has no HIP counterpart: {_NO_HIP_PROPERTY[suffix]}")
            return
        braced = data[s - 2:s] == b"${" and data[e:e + 1] == b"}"
        if whole in _LIBRARY_VARIABLES and braced:
            package = library(_LIBRARY_VARIABLES[whole], self.options, self.tables)
            if isinstance(package, str):
                self.e.report(r["unmapped-library"], s, e, f"{whole}: {package}")
            else:
                self.e.edit(r["target"], s - 2, e + 1, package.target.encode(), f"${{{whole}}} -> "
                            f"{package.target}")
            return
        if whole in _FOUND_VARIABLES:
            self.e.edit(r["variable"], s, e, b"hip_FOUND", f"{whole} -> hip_FOUND: find_package(hip)'s result")
            return
        if whole in _FLAG_LISTS:
            self.e.report(r["no-hip-counterpart"], s, e, f"{whole} is FindCUDA's list of nvcc flags, which the HIP "
                          "language does not read (its flags are translated here): move them to CMAKE_HIP_FLAGS or "
                          "target_compile_options")
            return
        self.e.report(r["unknown-variable"], s, e, f"{whole}: a CUDA variable cu2hip does not know; kept")

    def _arch_values(self, values, what: str) -> None:
        if not values:
            return
        ws = [w for a in values for w in _arg_words(a, self.data)]
        if any(w.text in (b"PARENT_SCOPE", b"CACHE") for w in ws):
            ws = ws[:next(i for i, w in enumerate(ws) if w.text in (b"PARENT_SCOPE", b"CACHE"))]
        if not ws or not all(_ARCH_VALUE.fullmatch(w.text) for w in ws):
            shown = " ".join(w.text.decode("utf-8", "replace") for w in ws)
            self.e.report(self.r["architectures"], values[0].start, values[-1].end,
                          f"{what} {shown}: not NVIDIA architecture numbers cu2hip can read; set the AMD targets "
                          "(CMAKE_HIP_ARCHITECTURES) by hand", severity="warning")
            return
        first, last = ws[0], ws[-1]
        new = ";".join(self.options.offload_arch).encode()
        shown = " ".join(w.text.decode() for w in ws)
        self.e.edit(self.r["architectures"], first.start, last.end, new,
                    f"NVIDIA architectures {shown} -> the AMD target {new.decode()} (offload-arch in the "
                    "configuration)")

    def _property_flags(self, cmd: Command) -> None:
        """The flags of a source's or a target's COMPILE_OPTIONS or COMPILE_FLAGS property
        (`set_source_files_properties`, `set_target_properties`, `set_property(SOURCE|TARGET
        ...)`): a `.cu` source's are nvcc's, read as CMAKE_CUDA_FLAGS are; a target's or
        another source's hold host flags too, so only the flags the tables know are reported."""
        texts = [a.text for a in cmd.args]
        if cmd.lower == "set_property":
            if not texts or texts[0].upper() not in (b"SOURCE", b"TARGET") or b"PROPERTY" not in texts:
                return
            k = texts.index(b"PROPERTY")
            owners, source = texts[1:k], texts[0].upper() == b"SOURCE"
            properties = [(texts[k + 1], cmd.args[k + 2:])] if k + 1 < len(texts) else []
        else:
            if b"PROPERTIES" not in texts:
                return
            k = texts.index(b"PROPERTIES")
            owners, source = texts[:k], cmd.lower == "set_source_files_properties"
            rest = cmd.args[k + 1:]
            properties = [(rest[i].text, rest[i + 1:i + 2]) for i in range(0, len(rest) - 1, 2)]
        cuda = source and any(o.endswith((b".cu", b".cuh")) for o in owners)
        for key, values in properties:
            if key in (b"COMPILE_OPTIONS", b"COMPILE_FLAGS"):
                ws = [w for a in values for w in _shell_words(_arg_words(a, self.data))]
                actions = self.flags.read(ws)
                if key == b"COMPILE_OPTIONS":     # a list: a source's takes no SHELL: (CMake passes it as is)
                    actions = self._in_lists(actions, values, shell=not source)
                self.e.flag_actions(actions, only_known=not cuda)

    def _in_lists(self, actions, args, *, shell: bool):
        """The actions of flags in a CMake list (compile options), where a replacement of
        several words (`-Xarch_device -ffast-math`) must stay together: one `SHELL:` item
        where CMake reads that prefix (target and directory options, which it de-duplicates
        word by word), else one item per word (`;`); an unquoted argument, which CMake would
        split at the blank, is quoted."""
        out, quoted = [], set()
        for act in actions:
            if act.new is None or b" " not in act.new:
                out.append(act)
                continue
            arg = next((a for a in args if a.start <= act.start and act.end <= a.end), None)
            item = self.data[arg.start if arg is not None else act.start:act.start].rsplit(b";", 1)[-1]
            if b"SHELL:" in item:       # already in a SHELL: item, which keeps its words together
                out.append(act)
                continue
            new = b"SHELL:" + act.new if shell else act.new.replace(b" ", b";")
            message = act.message
            if arg is not None and arg.kind == "unquoted" and arg.start not in quoted:
                quoted.add(arg.start)
                self.e.insert(self.r[act.kind], arg.start, b'"', "the argument quoted: its words stay one option")
                self.e.insert(self.r[act.kind], arg.end, b'"', "the argument quoted: its words stay one option")
            out.append(Action(act.start, act.end, new, act.kind, message))
        return out

    def _flags(self, cmd: Command) -> None:
        name, args = cmd.lower, cmd.args
        if name in ("set_source_files_properties", "set_target_properties", "set_property"):
            self._property_flags(cmd)
            return
        values = []
        if name == "set" and args and (re.fullmatch(rb"CMAKE_CUDA_FLAGS(_[A-Z]+)?", args[0].text)
                                       or args[0].text.decode("utf-8", "replace") in _FLAG_LISTS):
            values = args[1:]
        elif name in ("string", "list") and len(args) > 2 and args[0].text.upper() in (b"APPEND", b"PREPEND") and \
                (re.fullmatch(rb"CMAKE_CUDA_FLAGS(_[A-Z]+)?", args[1].text) or args[1].text.decode("utf-8", "replace") in _FLAG_LISTS):
            values = args[2:]
        if values:
            ws = [w for a in values for w in _arg_words(a, self.data) if w.text not in (b"CACHE", b"STRING")]
            self.e.flag_actions(self.flags.read(ws))
            return
        if name in _OPTION_COMMANDS:
            for a in args:
                for ws in _cuda_genex_words(self.data, *a.inner):
                    self.e.flag_actions(self._in_lists(self.flags.read(ws), args, shell=True))
            plain = [w for a in args if not _CUDA_GENEX.search(a.text) for w in _shell_words(_arg_words(a, self.data))]
            self.e.flag_actions(self._in_lists(self.flags.read(plain), args, shell=True), only_known=True)
        if name in _LINK_COMMANDS:
            for a in args[1:]:
                lib = a.text.removeprefix(b"-l").decode("utf-8", "replace")
                if a.kind == "unquoted" and _bare_library(lib):
                    package = library(lib, self.options, self.tables)
                    if isinstance(package, str):
                        self.e.report(self.r["unmapped-library"], a.start, a.end, f"{a.text.decode()}: {package}")
                    else:
                        new = (b"-l" if a.text.startswith(b"-l") else b"") + package.lib.encode()
                        self.e.edit(self.r["library"], a.start, a.end, new, f"{a.text.decode()} -> {new.decode()}")
                elif a.kind == "unquoted" and lib in _UNMAPPED:
                    self.e.report(self.r["unmapped-library"], a.start, a.end,
                                  f"{a.text.decode()}: {_UNMAPPED[lib]}")


_UNMAPPED = {
    "nvidia-ml": "NVML's API has no HIP counterpart (ROCm SMI's differs)",
    "nvToolsExt": "NVTX: ROCm's roctx has other names (roctxRangePush...)",
    "cupti": "CUPTI: ROCm's profiling APIs (rocprofiler) differ",
}


def _whole_line(data: bytes, start: int, end: int) -> tuple[int, int]:
    """[start, end) widened to its whole line(s) when nothing else is on them."""
    line_start = data.rfind(b"\n", 0, start) + 1
    line_end = data.find(b"\n", end)
    line_end = len(data) if line_end == -1 else line_end + 1
    if data[line_start:start].strip() or data[end:line_end].strip():
        return start, end
    return line_start, line_end


def _bare_library(lib: str) -> bool:
    return lib.removesuffix("_static") in ("cudart", "cuda", "cublas", "cublasLt", "curand", "cufft", "cusparse",
                                           "cusolver", "nvrtc", "cudnn", "cudadevrt")


def _shell_words(ws: list[Word]) -> list[Word]:
    """The words with CMake's `SHELL:` prefix (an option of several words, kept together)
    taken off: its flags are read as the others are."""
    return [Word(w.start + 6, w.end, w.text[6:]) if w.text.startswith(b"SHELL:") else w for w in ws]


def _cuda_genex_words(data: bytes, start: int, end: int) -> list[list[Word]]:
    """The words of each level of the `$<$<COMPILE_LANGUAGE:CUDA>:...>` genexes of
    data[start:end] and of the genexes nested in their content (`$<$<CONFIG:Debug>:-G>`
    in one is nvcc's too), `SHELL:` taken off; each level's words leave out the nested
    genexes, so that a genex nested N deep is read in work linear in N."""
    found = genexes(data, start, end)
    skip = {g.start: g.end for g in found}
    cuda = [False] * len(found)
    out = []
    for k, g in enumerate(found):
        parent = found[g.parent] if g.parent >= 0 else None
        cuda[k] = bool(_CUDA_GENEX.match(data, g.start)) or (
            parent is not None and cuda[g.parent] and g.start >= parent.content)
        if cuda[k] and g.content < g.end:
            out.append(_shell_words(words(data, g.content, g.end - 1, semicolons=True, skip=skip)))
    return out
