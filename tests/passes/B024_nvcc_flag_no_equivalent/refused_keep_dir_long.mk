app: main.cu
	nvcc --keep-dir=tmp -o $@ $<
