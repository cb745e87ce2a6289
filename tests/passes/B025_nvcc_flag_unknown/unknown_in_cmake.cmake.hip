set(CMAKE_HIP_FLAGS "--frobnicate")
target_compile_options(app PRIVATE -Wall --host-only-flag "SHELL:-Xarch_device -ffast-math")
