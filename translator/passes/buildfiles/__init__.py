"""Build files: CMake's CUDA as CMake's HIP language, and nvcc's command lines as hipcc's.

What it does:
    For CMake (`CMakeLists.txt`, `*.cmake`): `LANGUAGES CUDA` and `enable_language(CUDA)`
    become HIP (B001), and `cmake_minimum_required` at least 3.21, the first CMake with
    the HIP language (B003); `CMAKE_CUDA_*` variables and `CUDA_*` properties become the
    HIP language's (B002); NVIDIA architectures become the configured AMD targets (B004);
    `find_package(CUDA|CUDAToolkit)` becomes `find_package(hip)` and the ROCm packages of
    the libraries the file links (B005); `CUDA::` targets and FindCUDA's library
    variables become ROCm's imported targets (B006), from the header table the sources'
    includes use (`cublas_v2.h` -> hipblas: `roc::hipblas`; rocblas with --roc);
    `cuda_add_executable`/`cuda_add_library` become `add_executable`/`add_library` (B009);
    the `.cu` sources of a target are marked `LANGUAGE HIP`, since CMake gives `.cu` to
    CUDA (B011). nvcc flags in `CMAKE_CUDA_FLAGS`, FindCUDA's `CUDA_NVCC_FLAGS` and
    `$<$<COMPILE_LANGUAGE:CUDA>:...>` are mapped as Make's are.
    For Make (`Makefile`, `makefile`, `GNUmakefile`, `*.mk`): nvcc becomes hipcc (B020);
    in the words proven to reach nvcc (see translator.passes.buildfiles.make), flags are
    mapped (B021: `--use_fast_math` -> `-Xarch_device -ffast-math`, `-rdc=true` -> `-fgpu-rdc`,
    `-Xcompiler a,b` -> `a b`...), architectures become `--offload-arch` (B022), flags
    with no meaning for hipcc are removed with the reason (B023: `-lineinfo`, `-t=0`,
    `--expt-relaxed-constexpr`...), and `-l` of CUDA's libraries become ROCm's (B026).
Legal when:
    Always for the renames: each maps a CUDA build construct onto the HIP one that ROCm's
    CMake packages and hipcc define for the same job. Architectures are a choice: the
    configuration's `offload-arch` (gfx90a by default) replaces whatever NVIDIA targets
    the file named.
Not handled (reported, never silently kept):
    flags with no hipcc equivalent (B024: `-G`, `-maxrregcount`, `-Xptxas`...), flags and
    CUDA variables or commands the tables do not know (B025, B008, B010), CUDA libraries
    with no ROCm package (B007: NVML, NVTX, CUPTI), CUDA tools in recipes (B027),
    constructs with no HIP counterpart (B014: `CUDA_SEPARABLE_COMPILATION`,
    `CMAKE_CUDA_HOST_COMPILER`), target sources this file does not list (B012). A file
    that cannot be read (an unclosed `(` or quote) is reported (B013) and left as it is.
Example:
    `project(app LANGUAGES CXX CUDA)` -> `project(app LANGUAGES CXX HIP)`;
    `NVCC = nvcc` -> `NVCC = hipcc`; `-arch=sm_80` -> `--offload-arch=gfx90a`.
Safety:
    Renames and flag maps are safe; the architecture edits (B004, B022) are semantic: they
    choose the AMD target. The tokenizer is translator.buildfiles (why not tree-sitter's
    grammars: its docstring).
"""

from __future__ import annotations

from translator.buildfiles import CMAKE, BuildSyntaxError, CMakeFile, MakeFile
from translator.catalog import NOTE, WARNING, rule
from translator.passes import Context, register_pass
from translator.passes.buildfiles.cmake import CMakeTranslation
from translator.passes.buildfiles.emit import Emitter
from translator.passes.buildfiles.make import MakeTranslation

_CM = "CMakeLists.txt"
_MK = "Makefile"

LANGUAGE = rule(
    "B001", "cmake-hip-language", NOTE, "CMake's CUDA language becomes its HIP language", """
`project(... LANGUAGES CUDA)`, `enable_language(CUDA)`, `check_language(CUDA)`, a source's
`LANGUAGE CUDA` and `$<COMPILE_LANGUAGE:CUDA>` become HIP: CMake (3.21 and later) compiles
HIP sources with ROCm's clang through the `hip-lang` package that ROCm installs (Debian
ships it in libamdhip64-dev).""", edits=True, safe=True, example_path=_CM,
    example="project(app LANGUAGES CXX CUDA)\n", translation="project(app LANGUAGES CXX HIP)\n")
VARIABLE = rule(
    "B002", "cmake-hip-variable", NOTE, "a CMAKE_CUDA_* variable or CUDA_* property becomes the HIP language's", """
CMake's HIP language has the CUDA language's variables and properties under HIP's name:
`CMAKE_CUDA_STANDARD` is `CMAKE_HIP_STANDARD`, the `CUDA_STANDARD` property `HIP_STANDARD`;
`CUDAToolkit_FOUND` becomes `hip_FOUND`. Those with no counterpart are B014. A
`set(CMAKE_CUDA_COMPILER .../nvcc)` is removed: CMake finds the HIP compiler (ROCm's
clang) itself, and nvcc is not one.""", edits=True, safe=True,
    example_path=_CM, example="set(CMAKE_CUDA_STANDARD 17)\n", translation="set(CMAKE_HIP_STANDARD 17)\n")
MINIMUM = rule(
    "B003", "cmake-minimum-version", NOTE, "cmake_minimum_required is raised to 3.21, the HIP language's first", """
CMake knows the HIP language from 3.21; a project that asks for less and enables it fails
to configure with an older CMake in a way that names neither. Only a file that uses CUDA
is changed.""", edits=True, safe=True, example_path=_CM,
    example="cmake_minimum_required(VERSION 3.18)\nenable_language(CUDA)\n",
    translation="cmake_minimum_required(VERSION 3.21)\nenable_language(HIP)\n")
ARCHITECTURES = rule(
    "B004", "cmake-architectures", NOTE, "NVIDIA architectures become the configured AMD targets", """
`CMAKE_CUDA_ARCHITECTURES 70 80` and a target's `CUDA_ARCHITECTURES` name NVIDIA GPUs;
the translation names the AMD targets of `offload-arch` in the configuration (or
`--offload-arch`; gfx90a by default), as a CMake list. A value cu2hip cannot read (a
variable) is reported as a warning instead.""", edits=True, safe=False, example_path=_CM,
    example="set(CMAKE_CUDA_ARCHITECTURES 80 90)\n", translation="set(CMAKE_HIP_ARCHITECTURES gfx90a)\n")
FIND_PACKAGE = rule(
    "B005", "cmake-find-package", NOTE, "find_package(CUDA/CUDAToolkit) becomes find_package(hip) and ROCm's libraries", """
ROCm's `hip-config.cmake` gives `hip::host` (the runtime for host code) and `hip::device`;
each library the file links gets its own package (`find_package(hipblas)` for
`roc::hipblas`), found from the same header table the sources' includes are translated
with. `REQUIRED` is kept; CUDA's version and components are not (they are CUDA's).
FindCUDA's `find_package(CUDA)` in a file whose `project()` names no CUDA language also
gets `enable_language(HIP)`: FindCUDA compiled `.cu` files itself, CMake's HIP sources
need the language.""",
    edits=True, safe=True, example_path=_CM,
    example="find_package(CUDAToolkit REQUIRED)\ntarget_link_libraries(app CUDA::curand)\n",
    translation="find_package(hip REQUIRED)\nfind_package(hiprand REQUIRED)\n"
                "target_link_libraries(app hip::hiprand)\n")
TARGET = rule(
    "B006", "cmake-library-target", NOTE, "a CUDA:: target or FindCUDA library variable becomes ROCm's target", """
`CUDA::cudart` (and `cudart_static`, `cuda_driver`) is the HIP runtime, `hip::host`;
`CUDA::cublas` is `roc::hipblas` (`roc::rocblas` with --roc), `CUDA::curand`
`hip::hiprand`, `CUDA::cufft` `hip::hipfft`, `CUDA::cusparse` `roc::hipsparse`: the
library the header table maps the CUDA library's header to, and the target its ROCm
package exports. FindCUDA's `${CUDA_LIBRARIES}` and `${CUDA_CUBLAS_LIBRARIES}` likewise.
A target of `.cu` sources that has C or C++ sources too links `hip::host` (where the file
finds the hip package; else a warning says so): a C++ source that includes the runtime
needs its definitions (`__HIP_PLATFORM_AMD__`) and include folders.""",
    edits=True, safe=True, example_path=_CM, example="target_link_libraries(app PRIVATE CUDA::cudart CUDA::cublas)\n",
    translation="target_link_libraries(app PRIVATE hip::host roc::hipblas)\n")
UNMAPPED_LIBRARY = rule(
    "B007", "unmapped-cuda-library", WARNING, "a CUDA library with no ROCm package", """
NVML (`-lnvidia-ml`, `CUDA::nvml`), NVTX, CUPTI and the other libraries with no mapping
table have no drop-in ROCm library: the link line is kept, and the code that calls them
needs porting by hand (ROCm SMI, roctx, rocprofiler have APIs of their own).""",
    example_path=_MK, example="LDLIBS = -lnvidia-ml\n")
UNKNOWN_VARIABLE = rule(
    "B008", "unknown-cuda-variable", WARNING, "a CUDA variable of CMake that cu2hip does not know", """
A `CMAKE_CUDA_*`, `CUDA_*` or `CUDAToolkit_*` name that no rule maps: kept, so that the
translation never silently keeps CUDA it does not understand. Check what it is for.""",
    example_path=_CM, example="message(STATUS ${CUDAToolkit_VERSION})\n")
CUDA_COMMAND = rule(
    "B009", "cmake-cuda-add-command", NOTE, "FindCUDA's cuda_add_executable/cuda_add_library become CMake's own", """
FindCUDA's commands (removed from CMake's recommended use since 3.10) compile `.cu`
files with nvcc; with the HIP language, `add_executable`/`add_library` do, once the
sources are marked `LANGUAGE HIP` (B011); their `OPTIONS` (nvcc flags) move, translated,
to `target_compile_options` of the target's HIP sources. `cuda_include_directories` is
`include_directories`.""", edits=True, safe=True, example_path=_CM,
    example="cuda_add_executable(app main.cu)\n",
    translation="add_executable(app main.cu)\nset_source_files_properties(main.cu PROPERTIES LANGUAGE HIP)\n")
CUDA_COMMAND_UNKNOWN = rule(
    "B010", "unknown-cuda-command", WARNING, "a FindCUDA command cu2hip does not translate", """
`cuda_compile`, `cuda_wrap_srcs`, `cuda_select_nvcc_arch_flags` and the other `cuda_*`
commands have no HIP language counterpart; the call is kept and must be rewritten.""",
    example_path=_CM, example="cuda_select_nvcc_arch_flags(ARCH_FLAGS Auto)\n")
SOURCE_LANGUAGE = rule(
    "B011", "cmake-source-language", NOTE, "a target's .cu sources are marked LANGUAGE HIP", """
CMake decides a source's language by its suffix, and `.cu` is CUDA's; the translated
sources keep their names, so the translation says they are HIP, right after the command
that lists them (`set_source_files_properties(... PROPERTIES LANGUAGE HIP)`). Sources of a
list this file sets, or of a `file(GLOB)` of `.cu` files only, count; a list from
elsewhere is B012.""", edits=True, safe=True, example_path=_CM,
    example="add_library(kernels STATIC scale.cu util.cpp)\n",
    translation="add_library(kernels STATIC scale.cu util.cpp)\n"
                "set_source_files_properties(scale.cu PROPERTIES LANGUAGE HIP)\n")
SOURCES_UNKNOWN = rule(
    "B012", "cmake-sources-unknown", WARNING, "a target's sources come from a list this file does not set", """
The `.cu` files of `${SOURCES}` set in another file (or by a command cu2hip does not
read) cannot be marked `LANGUAGE HIP` here: mark them where the list is made.""",
    example_path=_CM, example="enable_language(CUDA)\nadd_executable(app ${SOURCES})\n",
    translation="enable_language(HIP)\nadd_executable(app ${SOURCES})\n")
SYNTAX = rule(
    "B013", "build-file-syntax", WARNING, "the build file cannot be read: it is left as it is", """
cu2hip's tokenizer (translator/buildfiles.py) stopped at an unclosed parenthesis,
quote or bracket: no rule translates the file.""", example_path=_CM, example="project(app LANGUAGES CUDA\n")
NO_HIP_COUNTERPART = rule(
    "B014", "cmake-no-hip-counterpart", WARNING, "a CUDA construct of CMake with no HIP counterpart", """
`CUDA_SEPARABLE_COMPILATION` (use `-fgpu-rdc` in the compile and link options),
`CMAKE_CUDA_HOST_COMPILER` (the HIP language compiles host code with its clang),
`CUDA_RESOLVE_DEVICE_SYMBOLS`, FindCUDA's `CUDA_NVCC_FLAGS` list (its flags are
translated where they are): kept and reported.""", example_path=_CM, example="set_target_properties(app PROPERTIES CUDA_SEPARABLE_COMPILATION ON)\n")
COMPILER = rule(
    "B020", "hipcc-compiler", NOTE, "nvcc becomes hipcc", """
`NVCC = nvcc`, `/usr/local/cuda/bin/nvcc`, `NVCC := $(shell which nvcc)` and a recipe's
`nvcc` become `hipcc`, HIP's compiler driver (the flags that reach it are translated by
B021-B026).""", edits=True, safe=True,
    example_path=_MK, example="NVCC = nvcc\n", translation="NVCC = hipcc\n")
FLAG = rule(
    "B021", "nvcc-flag-mapped", NOTE, "an nvcc flag becomes hipcc's", """
`--use_fast_math` is `-Xarch_device -ffast-math` (device code only, as nvcc's: a
plain `-ffast-math` would reach host code too), `-rdc=true` `-fgpu-rdc`, `-dc` `-fgpu-rdc -c`,
`-Xcompiler a,b` is `a b` (hipcc compiles host code itself), `-x cu` `-x hip`,
`--default-stream per-thread` `-fgpu-default-stream=per-thread`, `-ftz=true`
`-fgpu-flush-denormals-to-zero`, `-prec-div=false` `-fno-hip-fp32-correctly-rounded-divide-sqrt`,
`-fmad=false` `-ffp-contract=off`, `-Xptxas -v` and `--resource-usage`
`-Rpass-analysis=kernel-resource-usage`, `-keep` `-save-temps`, long forms their short ones.""",
    edits=True, safe=True, example_path=_MK,
    example="NVCC = nvcc\nNVCCFLAGS = -O3 --use_fast_math -rdc=true -Xcompiler -fopenmp,-Wall\n"
            "app: main.cu\n\t$(NVCC) $(NVCCFLAGS) -o $@ $<\n",
    translation="NVCC = hipcc\nNVCCFLAGS = -O3 -Xarch_device -ffast-math -fgpu-rdc -fopenmp -Wall\n"
                "app: main.cu\n\t$(NVCC) $(NVCCFLAGS) -o $@ $<\n")
OFFLOAD_ARCH = rule(
    "B022", "offload-arch-flag", NOTE, "-arch and -gencode become --offload-arch", """
`-arch=sm_80`, `--gpu-architecture`, `-gencode arch=compute_80,code=sm_80` name NVIDIA
GPUs; the first of a command or variable becomes `--offload-arch=` the configuration's
`offload-arch` (gfx90a by default), the others are removed; `-code` goes with them.""",
    edits=True, safe=False, example_path=_MK,
    example="NVCC = nvcc\nGENCODE = -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90\n"
            "app: main.cu\n\t$(NVCC) $(GENCODE) -o $@ $<\n",
    translation="NVCC = hipcc\nGENCODE = --offload-arch=gfx90a\n"
                "app: main.cu\n\t$(NVCC) $(GENCODE) -o $@ $<\n")
REMOVED = rule(
    "B023", "nvcc-flag-removed", NOTE, "an nvcc flag with no meaning for hipcc is removed", """
`-lineinfo` (hipcc's `-g` gives line tables), `--threads=0`/`-t=0` (nvcc's parallel
compilation of GPU targets), `--expt-relaxed-constexpr` and `--extended-lambda` (clang's
HIP needs neither), `-ccbin` (hipcc compiles host code with its own clang), `-cudart`,
`-Wno-deprecated-gpu-targets`, `-lcudadevrt`: each is removed, the reason in the edit.""",
    edits=True, safe=True, example_path=_MK,
    example="NVCC = nvcc\nNVCCFLAGS = -O2 -lineinfo --expt-relaxed-constexpr -t=0\n"
            "app: main.cu\n\t$(NVCC) $(NVCCFLAGS) -o $@ $<\n",
    translation="NVCC = hipcc\nNVCCFLAGS = -O2\napp: main.cu\n\t$(NVCC) $(NVCCFLAGS) -o $@ $<\n")
NO_EQUIVALENT = rule(
    "B024", "nvcc-flag-no-equivalent", WARNING, "an nvcc flag with no hipcc equivalent: kept, reported", """
`-G` (device debugging), `-maxrregcount` (bound the kernels with `__launch_bounds__`),
`-Xptxas` options other than `-v`, `-dlink`, `-lib`, `-ptx`, `-cubin`: hipcc has no flag
that does the same, and would reject or misread these. They are kept so that the build
fails visibly until they are replaced.""", example_path=_MK,
    example="NVCC = nvcc\napp: main.cu\n\t$(NVCC) -maxrregcount=64 -o $@ $<\n",
    translation="NVCC = hipcc\napp: main.cu\n\t$(NVCC) -maxrregcount=64 -o $@ $<\n")
UNKNOWN_FLAG = rule(
    "B025", "nvcc-flag-unknown", WARNING, "a flag reaching nvcc that cu2hip does not know: kept, reported", """
Every word of an nvcc command (and of the variables it expands) that starts with `-` is
known to the tables: kept (hipcc reads it as nvcc does: `-O3`, `-I`, `-D`, `-std=`...),
mapped, removed, or reported. This is the report of the rest.""", example_path=_MK,
    example="NVCC = nvcc\napp: main.cu\n\t$(NVCC) --some-new-flag -o $@ $<\n",
    translation="NVCC = hipcc\napp: main.cu\n\t$(NVCC) --some-new-flag -o $@ $<\n")
LIBRARY_FLAG = rule(
    "B026", "cuda-library-flag", NOTE, "-l of a CUDA library becomes ROCm's", """
`-lcudart` and `-lcuda` are the HIP runtime, `-lamdhip64` (hipcc links it anyway; a host
compiler's link line needs it); `-lcublas` is `-lhipblas` (`-lrocblas` with --roc),
`-lcublasLt` `-lhipblaslt`, `-lcurand` `-lhiprand`, `-lcufft` `-lhipfft`, `-lcusparse`
`-lhipsparse`, `-lcusolver` `-lhipsolver`: the libraries of the header table the sources'
includes are translated with. In CMake, bare names in `target_link_libraries` likewise.""",
    edits=True, safe=True, example_path=_MK, example="LDLIBS = -lcudart -lcublas -lcublasLt -lcurand\n",
    translation="LDLIBS = -lamdhip64 -lhipblas -lhipblaslt -lhiprand\n")
TOOL = rule(
    "B027", "cuda-tool", WARNING, "a recipe runs an NVIDIA tool", """
`cuobjdump`, `nvdisasm`, `nvprof`, `nsys`, `ncu`, `nvidia-smi`, `ptxas`,
`compute-sanitizer`...: NVIDIA's tools, with no command of that name for AMD GPUs (the
message names ROCm's nearest). Kept.""", example_path=_MK,
    example="dump: app\n\tcuobjdump -sass app\n")

_RULES = (LANGUAGE, VARIABLE, MINIMUM, ARCHITECTURES, FIND_PACKAGE, TARGET, UNMAPPED_LIBRARY, UNKNOWN_VARIABLE,
          CUDA_COMMAND, CUDA_COMMAND_UNKNOWN, SOURCE_LANGUAGE, SOURCES_UNKNOWN, SYNTAX, NO_HIP_COUNTERPART,
          COMPILER, FLAG, OFFLOAD_ARCH, REMOVED, NO_EQUIVALENT, UNKNOWN_FLAG, LIBRARY_FLAG, TOOL)
# The rules by the role the CMake and Make halves and the flag reader name them by.
ROLES = {
    "language": LANGUAGE, "variable": VARIABLE, "minimum": MINIMUM, "architectures": ARCHITECTURES,
    "find-package": FIND_PACKAGE, "target": TARGET, "unmapped-library": UNMAPPED_LIBRARY,
    "unknown-variable": UNKNOWN_VARIABLE, "cuda-command": CUDA_COMMAND, "cuda-command-unknown": CUDA_COMMAND_UNKNOWN,
    "source-language": SOURCE_LANGUAGE, "sources-unknown": SOURCES_UNKNOWN, "no-hip-counterpart": NO_HIP_COUNTERPART,
    "compiler": COMPILER, "mapped": FLAG, "arch": OFFLOAD_ARCH, "removed": REMOVED, "no-equivalent": NO_EQUIVALENT,
    "unknown": UNKNOWN_FLAG, "library": LIBRARY_FLAG, "tool": TOOL,
}


@register_pass("build-files", rules=_RULES, languages=("cmake", "make"))
def run(ctx: Context) -> None:
    build = ctx.build
    if isinstance(build, BuildSyntaxError):
        ctx.report(SYNTAX, build.offset, f"{build.message}: the file is left as it is", end=build.offset + 1)
        return
    emit = Emitter(ctx, ROLES)
    if isinstance(build, CMakeFile):
        CMakeTranslation(emit, build, ctx.options, ctx.tables).run()
    elif isinstance(build, MakeFile):
        MakeTranslation(emit, build, ctx.options, ctx.tables).run()


__all__ = ["CMAKE", "run"]
