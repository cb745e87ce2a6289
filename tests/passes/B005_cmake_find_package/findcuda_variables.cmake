if(TRUE)
  find_package(CUDA)
endif()
target_link_libraries(app ${CUDA_LIBRARIES} ${CUDA_CUBLAS_LIBRARIES} ${CUDA_curand_LIBRARY})
