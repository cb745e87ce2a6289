cuda_compile(OBJECTS a.cu)
cuda_wrap_srcs(app OBJ generated a.cu)
