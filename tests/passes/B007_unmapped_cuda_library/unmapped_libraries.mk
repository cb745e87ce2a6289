LDLIBS = -lnvidia-ml -lnvToolsExt -lcupti -lm
