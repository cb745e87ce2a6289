app: main.cu
	# cu2hip: ignore[B023]
	nvcc -lineinfo -o $@ $<
