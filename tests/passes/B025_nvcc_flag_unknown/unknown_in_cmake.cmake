set(CMAKE_CUDA_FLAGS "--frobnicate")
target_compile_options(app PRIVATE -Wall --host-only-flag --use_fast_math)
