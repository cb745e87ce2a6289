"""Regression tests for the reliability issue: each named after the behaviour it pins."""

from __future__ import annotations

from translator.passes import Options
from translator.pipeline import translate

OPTIONS = Options(rocm_version=(6, 0))


def hip(source: bytes, **options) -> bytes:
    result = translate("r.cu", source, Options(rocm_version=(6, 0), **options))
    assert not [d for d in result.diagnostics if d.code == "P003"], [d.format() for d in result.diagnostics]
    return result.output


def test_the_runtime_include_precedes_a_rewrite_at_the_same_offset(monkeypatch) -> None:
    # A launch at the very start of an included fragment once got the include inserted
    # inside its rewrite. Such a fragment does not parse now, so its launch is kept; the
    # ordering itself: a pass's insertion at offset 0 comes after the requested include.
    source = b"k<<<grid, block>>>(d_x, n);\n"
    result = translate("r.cu", source, Options(rocm_version=(6, 0), hip_kernel_execution_syntax=True))
    # A launch needs the runtime header (H002), which comes before the kept launch.
    assert result.output == b"#include <hip/hip_runtime.h>\n" + source
    assert "H003" in [d.code for d in result.diagnostics]
    import dataclasses
    from translator import passes
    from translator.edits import Edit
    from translator.passes.hipify.launch_syntax import LAUNCH
    original = passes.all_passes()["hipify"]

    def prefixing(ctx):
        original.run(ctx)
        if not ctx.source.data.lstrip().startswith((b"#include", b"/*x*/")):
            ctx.fix(LAUNCH, Edit(0, 0, b"/*x*/"), "an insertion at the start")
    monkeypatch.setitem(passes.PASSES, "hipify", dataclasses.replace(original, run=prefixing))
    assert hip(b"void f() { cudaFree(0); }\n") == b"#include <hip/hip_runtime.h>\n/*x*/void f() { hipFree(0); }\n"


def test_the_runtime_include_goes_after_the_whole_pragma_once_line() -> None:
    assert hip(b"#pragma once // guard\nvoid f() { cudaFree(0); }\n") == \
        b"#pragma once // guard\n#include <hip/hip_runtime.h>\n\nvoid f() { hipFree(0); }\n"
    assert hip(b"#pragma once<\nvoid f() { cudaFree(0); }\n") == \
        b"#pragma once<\n#include <hip/hip_runtime.h>\n\nvoid f() { hipFree(0); }\n"
    assert hip(b"#pragma once // a\r\nvoid f() { cudaFree(0); }\r\n") == \
        b"#pragma once // a\r\n#include <hip/hip_runtime.h>\r\n\r\nvoid f() { hipFree(0); }\r\n"


def test_an_include_guard_with_a_comment_is_still_a_guard() -> None:
    assert hip(b"#ifndef G // g\n#define G\nvoid f() { cudaFree(0); }\n#endif\n") == \
        b"#ifndef G // g\n#include <hip/hip_runtime.h>\n\n#define G\nvoid f() { hipFree(0); }\n#endif\n"


def test_a_removed_include_takes_the_line_splices_that_joined_it() -> None:
    # Found by bench/fuzz.py: a `\` line splice left dangling before a removed duplicate include.
    source = b'#include"cuda_runtime.h"\n\\\n#include<cuda_runtime.h>\n'
    assert hip(source, roc=True) == b'#include"hip/hip_runtime.h"\n\n'
    assert hip(hip(source, roc=True), roc=True) == b'#include"hip/hip_runtime.h"\n\n'
