#pragma once
struct ScaleParams {
    float factor;
    int n;
};
