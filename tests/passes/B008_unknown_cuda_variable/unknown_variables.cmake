include_directories(${CUDA_INCLUDE_DIRS})
message(STATUS "${CUDAToolkit_VERSION} ${CMAKE_CUDA_SOMETHING_NEW}")
