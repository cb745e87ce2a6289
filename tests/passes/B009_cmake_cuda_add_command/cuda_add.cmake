cuda_include_directories(include)
cuda_add_library(kernels SHARED a.cu b.cpp OPTIONS -arch=sm_80)
  cuda_add_executable(app WIN32 main.cu)
