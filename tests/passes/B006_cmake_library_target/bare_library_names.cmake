target_link_libraries(app PRIVATE cublas -lcurand cudart m)
