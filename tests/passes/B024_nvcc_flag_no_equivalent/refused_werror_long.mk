app: main.cu
	nvcc --Werror all-warnings -o $@ $<
