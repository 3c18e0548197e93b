// The version railyard reports everywhere it names itself (plan.json's generator, file headers,
// --version). It is set in one place, CMake's project(VERSION), and reaches the code as RAILYARD_VERSION.
#pragma once

namespace railyard {

inline constexpr const char* kVersion = RAILYARD_VERSION;

}  // namespace railyard
