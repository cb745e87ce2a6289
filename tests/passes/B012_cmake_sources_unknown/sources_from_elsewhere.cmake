enable_language(CUDA)
add_executable(app ${SOURCES} main.cu)
