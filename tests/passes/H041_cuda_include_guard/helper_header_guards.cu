// cu2hip-options: --rocm-version 5.2
// A helper header in the style of CUDA Samples' helper_cuda.h: each block is compiled
// only if the CUDA header whose guard it tests was included first.
#pragma once
#include <cuda_runtime.h>
#include <stdio.h>

#ifdef __DRIVER_TYPES_H__
static const char *error_name(cudaError_t error) { return cudaGetErrorName(error); }
#endif

#if defined(__CUDA_RUNTIME_H__) && !defined(_CUFFT_H_)
static int without_fft = 1;
#endif

#ifdef CUBLAS_API_H_
static const char *blas_status(int s) { return s ? "error" : "ok"; }
#endif

// Not in a condition: left alone (a comment naming __DRIVER_TYPES_H__, a string).
static const char *guard = "__DRIVER_TYPES_H__";
