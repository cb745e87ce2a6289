find_package(hip REQUIRED)
find_package(hiprand REQUIRED)
target_link_libraries(app PRIVATE hip::hiprand)
