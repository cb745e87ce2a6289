#pragma once
#define WIDTH blockDim.x
#define OFFSET ((int)WIDTH)
struct Cell
{
    int x;
    __device__ Cell() : x(OFFSET) {}
};
