#pragma once
void configure(int& threads);
