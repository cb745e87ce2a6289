app: main.cu
	hipcc --device-debug -o $@ $<
