project(app LANGUAGES HIP)
add_executable(app main.cu)
set_source_files_properties(main.cu PROPERTIES LANGUAGE HIP)
