app: main.cu
	hipcc --split-compile=4 -o $@ $<
