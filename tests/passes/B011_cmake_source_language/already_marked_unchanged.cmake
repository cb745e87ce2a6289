add_executable(app main.cu)
set_source_files_properties(main.cu PROPERTIES LANGUAGE HIP)
add_library(imported SHARED IMPORTED)
add_library(alias ALIAS app)
