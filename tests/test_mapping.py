"""Tests for translator.mapping and the generated mapping data.

Expected values are read off AMD HIPIFY's tables in <repo>/../shared/reference.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from translator.mapping import (
    HEADERS_TSV_HEADER,
    LIBRARIES,
    TSV_HEADER,
    ApiEntry,
    load_tables,
    parse_version,
    version_at_least,
    version_str,
)

REPO_ROOT = Path(__file__).resolve().parent.parent
REFERENCE = REPO_ROOT.parent / "shared" / "reference"
DATA_DIR = REPO_ROOT / "translator" / "data"
KINDS = {"function", "type", "constant", "device_function", "device_type"}

needs_reference = pytest.mark.skipif(
    not (REFERENCE / "hipify-tables").is_dir(),
    reason=f"HIPIFY reference tables not found at {REFERENCE}",
)


@pytest.fixture(scope="module")
def tables():
    return load_tables()


# --- versions -------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("", None),
    ("5.2.0", (5, 2, 0)),
    ("12.4", (12, 4)),
    ("7", (7,)),
    ("3.10.0", (3, 10, 0)),
])
def test_parse_version(text, expected):
    assert parse_version(text) == expected


@pytest.mark.parametrize("junk", ["5.x", " 5.2", "5.2 ", "5..2", "5.2.", ".5", "-1", "v5.2", "\u0663.1", "None"])
def test_parse_version_rejects_junk(junk):
    with pytest.raises(ValueError):
        parse_version(junk)


@given(st.lists(st.integers(min_value=0, max_value=10**6), min_size=1, max_size=5).map(tuple))
def test_version_str_round_trips(version):
    assert parse_version(version_str(version)) == version


def test_version_str_of_none_is_empty():
    assert version_str(None) == ""


@pytest.mark.parametrize("version, floor, expected", [
    ((5, 2), (5, 2, 0), True),
    ((5, 2, 0), (5, 2), True),
    ((5, 2, 0, 0), (5, 2), True),
    ((5, 2), (5, 2, 1), False),
    ((5, 1, 9), (5, 2), False),
    ((6,), (5, 2, 3), True),
    ((5, 10), (5, 9, 9), True),   # numeric, not string, comparison
    ((1, 5, 0), (1, 6, 0), False),
])
def test_version_at_least_pads_with_zeros(version, floor, expected):
    assert version_at_least(version, floor) is expected


# --- loader ---------------------------------------------------------------

def test_load_tables_is_cached(tables):
    assert load_tables() is tables
    assert tables.libraries == LIBRARIES


def test_cuda_malloc(tables):
    entry = tables.lookup("cudaMalloc")
    assert entry is not None
    assert (entry.library, entry.kind, entry.section) == ("runtime", "function", "Memory Management")
    assert entry.hip == "hipMalloc"
    assert entry.hip_added == (1, 5, 0)   # the table says 1.5.0
    assert entry.cuda_added is None and entry.hip_deprecated is None and entry.roc is None


def test_hip_added_version(tables):
    assert tables.lookup("cudaDeviceSetLimit").hip_added == (5, 3, 0)


def test_deprecated_cuda_api(tables):
    entry = tables.lookup("cudaThreadSynchronize")
    assert entry.cuda_deprecated == (10, 0)
    assert entry.section == "Thread Management [DEPRECATED]"
    assert entry.hip == "hipDeviceSynchronize"


def test_unsupported_api_has_no_hip_name(tables):
    entry = tables.lookup("cudaDeviceFlushGPUDirectRDMAWrites")
    assert entry.hip is None and entry.hip_added is None
    assert entry.cuda_added == (11, 3)


def test_removed_cuda_api(tables):
    entry = tables.lookup("texture")
    assert entry.cuda_removed == (12, 0) and entry.hip == "texture"


def test_experimental_hip_version(tables):
    entry = tables.lookup("cublasCgemmBatched_64")
    assert entry.hip == "hipblasCgemmBatched_v2_64"
    assert entry.hip_experimental == (6, 3, 0)


def test_blas_entry_has_roc_name(tables):
    entry = tables.lookup("cublasSgemm_v2")
    assert (entry.library, entry.hip, entry.roc) == ("blas", "hipblasSgemm", "rocblas_sgemm")
    assert entry.hip_added == (1, 8, 2)


def test_blas_constant(tables):
    entry = tables.lookup("CUBLAS_COMPUTE_32F")
    assert entry.kind == "constant"
    assert entry.cuda_added == (11, 0)
    assert (entry.hip, entry.hip_added) == ("HIPBLAS_COMPUTE_32F", (6, 0, 0))
    assert (entry.roc, entry.roc_added) == ("rocblas_compute_type_f32", (5, 7, 0))


def test_dnn_roc_columns_hold_miopen(tables):
    entry = tables.lookup("cudnnCreate")
    assert (entry.library, entry.hip, entry.roc) == ("dnn", "hipdnnCreate", "miopenCreate")
    assert entry.hip_added is None and entry.roc_added == (2, 1, 0)


def test_kinds(tables):
    assert tables.lookup("cudaStream_t").kind == "type"
    assert tables.lookup("__shfl_down").kind == "device_function"
    assert tables.lookup("__half").kind == "device_type"
    assert tables.lookup("__NV_E4M3").kind == "constant"
    assert tables.lookup("CU_MEMHOSTALLOC_PORTABLE").kind == "constant"
    assert tables.lookup("cuCadd").kind == "function"


def test_device_function_versions(tables):
    entry = tables.lookup("__shfl_down")
    assert (entry.library, entry.hip, entry.cuda_added, entry.cuda_deprecated) == (
        "device", "__shfl_down", (7, 5), (9, 0))


def test_every_library_is_populated(tables):
    for library in LIBRARIES:
        entries = list(tables.entries(library))
        assert entries, library
        assert all(entry.library == library for entry in entries)
        assert [entry.cuda for entry in entries] == sorted(entry.cuda for entry in entries)


def test_lookup_prefers_earlier_library(tables):
    # Listed by both the runtime and the driver table, and by the runtime and cuDNN tables.
    assert tables.lookup("CUstream_st").library == "runtime"
    assert tables.lookup("libraryPropertyType").library == "runtime"
    assert any(entry.cuda == "CUstream_st" for entry in tables.entries("driver"))


def test_lookup_and_entries_agree(tables):
    by_lookup = tables.lookup("cufftPlan1d")
    by_entries = next(entry for entry in tables.entries("fft") if entry.cuda == "cufftPlan1d")
    assert by_lookup == by_entries
    assert isinstance(by_lookup, ApiEntry)


def test_unknown_names(tables):
    assert tables.lookup("cudaNoSuchFunction") is None
    assert tables.header("no_such_header.h") is None
    with pytest.raises(KeyError):
        tables.entries("nosuchlib")


def test_all_entries(tables):
    every = list(tables.entries())
    assert len(every) == sum(len(list(tables.entries(lib))) for lib in LIBRARIES)


def test_entries_are_immutable(tables):
    entry = tables.lookup("cudaMalloc")
    with pytest.raises(AttributeError):
        entry.hip = "somethingElse"


# --- headers --------------------------------------------------------------

def test_headers(tables):
    runtime = tables.header("cuda_runtime.h")
    assert (runtime.hip, runtime.roc, runtime.api, runtime.unsupported) == (
        "hip/hip_runtime.h", None, "API_RUNTIME", False)
    launch = tables.header("device_launch_parameters.h")
    assert launch.hip is None and not launch.unsupported
    blas = tables.header("cublas_v2.h")
    assert (blas.hip, blas.roc) == ("hipblas.h", "rocblas.h")
    assert tables.header("caffe2/core/common_gpu.h").unsupported
    assert tables.header("caffe2/operators/operator_fallback_gpu.h").unsupported


# --- generated files ------------------------------------------------------

def tsv_files():
    return sorted((DATA_DIR / "mappings").glob("*.tsv"))


def test_one_tsv_per_library():
    assert {path.stem for path in tsv_files()} == set(LIBRARIES)


@pytest.mark.parametrize("path", tsv_files(), ids=lambda path: path.name)
def test_library_tsv_shape(path):
    raw = path.read_bytes()
    assert b"\r" not in raw and raw.endswith(b"\n") and not raw.endswith(b"\n\n")
    lines = raw.decode("utf-8").split("\n")[:-1]
    assert lines[0] == TSV_HEADER
    names = []
    for number, line in enumerate(lines[1:], 2):
        cells = line.split("\t")
        assert len(cells) == 19, f"{path.name}:{number}"
        assert cells[0] and cells[1] in KINDS and cells[2], f"{path.name}:{number}"
        for index in (3, 4, 5, 6, 8, 9, 10, 11, 12, 14, 15, 16, 17, 18):
            parse_version(cells[index])
        names.append(cells[0])
    assert names == sorted(set(names)), f"{path.name}: rows not sorted or not unique"


def test_headers_tsv_shape():
    raw = (DATA_DIR / "headers.tsv").read_bytes()
    assert b"\r" not in raw and raw.endswith(b"\n")
    lines = raw.decode("utf-8").split("\n")[:-1]
    assert lines[0] == HEADERS_TSV_HEADER
    for line in lines[1:]:
        cells = line.split("\t")
        assert len(cells) == 5 and cells[0] and cells[3] and cells[4] in ("0", "1"), line


def run_script(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=REPO_ROOT, capture_output=True, text=True)


@needs_reference
def test_generated_data_is_current():
    result = run_script("scripts/gen_mappings.py", "--check", "--reference", str(REFERENCE))
    assert result.returncode == 0, result.stdout + result.stderr


def test_generated_docs_are_current():
    result = run_script("scripts/gen_api_docs.py", "--check")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.fixture
def reference_copy(tmp_path):
    if not (REFERENCE / "hipify-tables").is_dir():
        pytest.skip(f"HIPIFY reference tables not found at {REFERENCE}")
    copy = tmp_path / "reference"
    shutil.copytree(REFERENCE, copy)
    return copy


def test_generator_rejects_disagreeing_combined_table(reference_copy):
    hip_only = reference_copy / "hipify-tables" / "CURAND_API_supported_by_HIP.md"
    hip_only.write_text(hip_only.read_text(encoding="utf-8").replace(
        "|`hiprandCreateGenerator`|1.5.0|", "|`hiprandCreateGenerator`|9.9.9|"), encoding="utf-8")
    result = run_script("scripts/gen_mappings.py", "--check", "--reference", str(reference_copy))
    assert result.returncode == 2
    assert "CURAND_API_supported_by_HIP.md" in result.stderr


def test_generator_reports_duplicates_and_keeps_first(reference_copy):
    table = reference_copy / "hipify-tables" / "cuComplex_API_supported_by_HIP.md"
    row = "|`cuCadd`| | | | |`hipCadd`|1.6.0| | | | |\n"
    text = table.read_text(encoding="utf-8")
    assert row in text
    table.write_text(text.replace(row, row + row.replace("1.6.0", "9.9.9")), encoding="utf-8")
    result = run_script("scripts/gen_mappings.py", "--check", "--reference", str(reference_copy))
    # The first row wins, so the output is unchanged; the duplicate is only reported.
    assert result.returncode == 0, result.stdout + result.stderr
    assert "duplicate CUDA name 'cuCadd'" in result.stderr


# --- corrections.tsv: bf16 and the headers the include map lacks --------------

def _correction_rows() -> list[list[str]]:
    lines = (DATA_DIR / "corrections.tsv").read_text(encoding="utf-8").split("\n")
    assert lines[0] == "table\tname\tfield\tvalue\tevidence" and lines[-1] == ""
    return [line.split("\t") for line in lines[1:-1]]


def test_every_correction_names_a_real_target_and_says_why(tables):
    api_fields = set(ApiEntry.__dataclass_fields__) - {"cuda", "library"}
    for table, name, field, value, evidence in _correction_rows():
        assert len(evidence) > 30, name
        if table == "api":
            assert tables.lookup(name) is not None, f"{name}: a correction of a name no table lists"
            assert field in api_fields, (name, field)
            if field.endswith(("_added", "_deprecated", "_changed", "_removed", "_experimental")):
                assert parse_version(value) is not None, (name, value)
        else:
            assert table == "header" and field in {"hip", "roc", "api", "hip_added"}, (table, name, field)


@pytest.mark.parametrize("cuda, hip, added", [
    ("__nv_bfloat16", "__hip_bfloat16", (5, 7, 0)),
    ("__nv_bfloat162", "__hip_bfloat162", (5, 7, 0)),
    ("__nv_bfloat16_raw", "__hip_bfloat16_raw", (6, 2, 0)),
    ("__nv_bfloat162_raw", "__hip_bfloat162_raw", (6, 2, 0)),
    ("__float2bfloat16", "__float2bfloat16", (5, 7, 0)),
    ("__bfloat162float", "__bfloat162float", (5, 7, 0)),
    ("__float22bfloat162_rn", "__float22bfloat162_rn", (5, 7, 0)),
    ("__halves2bfloat162", "__halves2bfloat162", (5, 7, 0)),
    ("__hmax2", "__hmax2", (5, 7, 0)),
])
def test_bf16_names_map_to_hip_bf16_from_rocm_5_7(tables, cuda, hip, added):
    entry = tables.lookup(cuda)
    assert (entry.library, entry.hip, entry.hip_added) == ("device", hip, added)
    # The device page and lookup() hand out the same corrected entry.
    assert [e for e in tables.entries("device") if e.cuda == cuda] == [entry]


@pytest.mark.parametrize("cuda", ["__floats2bfloat162_rn", "__float2bfloat16_rn", "__float2bfloat162_rn",
                                  "__int2bfloat16_rd", "nv_bfloat162"])
def test_bf16_names_hip_lacks_stay_unmapped(tables, cuda):
    # HIP's hip_bf16.h (ROCm/clr amd_hip_bf16.h, 2025) declares none of these.
    assert tables.lookup(cuda).hip is None


def test_bf16_corrections_keep_the_default_target(tables):
    from translator.mapping import newest_in_tables
    assert newest_in_tables(tables) == (6, 3, 0)


def test_cuda_bf16_header_is_added_with_its_release(tables):
    bf16 = tables.header("cuda_bf16.h")
    assert (bf16.hip, bf16.roc, bf16.api, bf16.unsupported, bf16.hip_added) == \
        ("hip/hip_bf16.h", None, "API_RUNTIME", False, (5, 7, 0))
    assert tables.header("cuda_fp16.h").hip_added is None
    assert [h.cuda for h in tables.headers()].count("cuda_bf16.h") == 1


def test_header_corrections_are_checked(monkeypatch):
    from translator import mapping
    monkeypatch.setattr(mapping, "_correction_map", lambda: {("header", "cuda_new.h"): {"hip": "hip/new.h"}})
    with pytest.raises(ValueError, match="cuda_new.h.*give its hip and api"):
        mapping._read_headers()
    monkeypatch.setattr(mapping, "_correction_map", lambda: {("header", "cuda_fp16.h"): {"hip_removed": "6.0.0"}})
    with pytest.raises(ValueError, match=r"unknown fields \['hip_removed'\]"):
        mapping._read_headers()
    monkeypatch.setattr(mapping, "_correction_map",
                        lambda: {("header", "cuda_fp16.h"): {"hip_added": "1.6.0"},
                                 ("header", "cuda_new.h"): {"hip": "hip/new.h", "api": "API_RUNTIME"}})
    headers = mapping._read_headers()
    assert headers["cuda_fp16.h"].hip_added == (1, 6, 0) and headers["cuda_fp16.h"].hip == "hip/hip_fp16.h"
    assert headers["cuda_new.h"] == mapping.HeaderEntry("cuda_new.h", "hip/new.h", None, "API_RUNTIME", False)


def test_newest_release_is_the_tables_newest(tables):
    from translator.mapping import newest_in_tables, newest_release
    assert newest_release() == newest_in_tables(tables)


def test_newest_release_applies_corrections_to_a_names_first_listing_only(monkeypatch):
    # The runtime's listing of cudaX is corrected (its 6.5 deprecation becomes 5.0); blas
    # lists cudaX too, uncorrected, as `entries` gives it; cudaY is corrected upwards.
    import translator.mapping as m

    def row(name, hip_added="", hip_deprecated=""):
        cells = [name, "function", "s", "", "", "", "", "hipX", hip_added, hip_deprecated, "", "", "",
                 "", "", "", "", "", ""]
        return "\t".join(cells)
    data = {"runtime": [row("cudaX", "1.0", "6.5"), row("cudaY", "2.0")], "blas": [row("cudaX", "1.0", "6.1")]}
    monkeypatch.setattr(m, "_data_lines", lambda name, header, width: data.get(name[9:-4], []))
    monkeypatch.setattr(m, "_correction_map", lambda: {("api", "cudaX"): {"hip_deprecated": "5.0"},
                                                       ("api", "cudaY"): {"hip_added": "6.2"}})
    assert m.newest_release() == (6, 2)
    data["blas"] = [row("cudaX", "1.0", "6.4")]
    assert m.newest_release() == (6, 4)
