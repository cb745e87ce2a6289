#pragma once
#define BLOCK 192
