app: main.cu
	# cu2hip: ignore[B023]
	hipcc -o $@ $<
