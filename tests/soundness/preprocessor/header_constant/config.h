#pragma once
constexpr int kBlock = 384;
