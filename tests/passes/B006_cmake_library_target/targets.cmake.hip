target_link_libraries(app PRIVATE hip::host hip::host roc::hipblaslt hip::host
                      roc::hipsolver)
