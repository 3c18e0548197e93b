// Whole-file reads for inputs railyard takes by path (captures, catalogs, target files).
#pragma once

#include <string>

namespace railyard {

// The file's bytes, read with one allocation of its size (and on to the end of a pipe or a file
// still growing). Throws std::runtime_error("<path>: cannot read the file").
std::string ReadWholeFile(const std::string& path);

}  // namespace railyard
