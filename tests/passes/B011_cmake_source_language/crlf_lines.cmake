project(app LANGUAGES CUDA)
add_executable(app main.cu)
