app: main.cu
	hipcc --fatbin -o $@ $<
