// A plain header: no CUDA in it, so a translator that writes only CUDA files loses it.
#pragma once
#include <cstdio>
#include <cstdlib>

#define REQUIRE(cond, what)                                        \
    do {                                                           \
        if (!(cond)) {                                             \
            std::fprintf(stderr, "check failed: %s\n", what);      \
            std::exit(1);                                          \
        }                                                          \
    } while (0)

inline int ceil_div(int a, int b) { return (a + b - 1) / b; }
