// Whole-file reads for inputs railyard takes by path (captures, catalogs, target files).
#pragma once

#include <optional>
#include <string>

namespace railyard {

// The file's bytes, read with one allocation of its size (and on to the end of a pipe or a file
// still growing). "-" is standard input (a file named "-" is "./-"), read once per process and kept,
// so two readers of the same "-" (doctor --plan -: the plan's hosts, then its switch
// configurations) get the same bytes. Throws InputError ("<path>: cannot read the file"): a
// file the user named that is not there is the user's to fix (exit 2).
std::string ReadWholeFile(const std::string& path);
// The file's bytes, or nullopt when it cannot be opened or read (a capture slot left empty, a CSV a
// spec names): for callers that say in their own words what is missing. "-" is not standard input here.
std::optional<std::string> ReadFileIfReadable(const std::string& path);
// How messages name `path`: "(stdin)" for "-", else the path.
std::string ShownPath(const std::string& path);

}  // namespace railyard
