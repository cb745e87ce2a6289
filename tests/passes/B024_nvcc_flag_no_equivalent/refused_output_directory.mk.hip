app: main.cu
	hipcc --output-directory out -o $@ $<
