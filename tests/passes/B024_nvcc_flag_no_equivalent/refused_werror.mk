app: main.cu
	nvcc -Werror cross-execution-space-call -o $@ $<
