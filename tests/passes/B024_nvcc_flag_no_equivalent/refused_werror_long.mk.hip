app: main.cu
	hipcc --Werror all-warnings -o $@ $<
