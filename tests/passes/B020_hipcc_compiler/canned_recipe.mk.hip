define compile
	@hipcc -c $< -o $@
endef
LIBS_OF_APP = -lhiprand
