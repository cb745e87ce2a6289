app: main.cu
	nvcc --output-directory out -o $@ $<
