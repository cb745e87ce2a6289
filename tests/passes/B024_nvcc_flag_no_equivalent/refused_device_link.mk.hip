app: main.cu
	hipcc --device-link -o $@ $<
