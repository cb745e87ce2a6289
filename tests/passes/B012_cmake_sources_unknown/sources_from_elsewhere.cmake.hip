enable_language(HIP)
add_executable(app ${SOURCES} main.cu)
set_source_files_properties(main.cu PROPERTIES LANGUAGE HIP)
