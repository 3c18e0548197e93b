// What railyard says on stderr besides errors, by -q / -v: warnings about the input and notes on what
// was written (both dropped by -q), progress (on a terminal, or with -v) and details (-v only: files
// read, counts, time and memory). Errors are always printed; the results themselves go to stdout.
#pragma once

#include <string_view>

namespace railyard::cli {

enum class Verbosity { kQuiet, kNormal, kVerbose };

void SetVerbosity(Verbosity verbosity);
Verbosity CurrentVerbosity();

// "railyard: warning: <text>" unless -q.
void Warn(std::string_view text);
// "railyard: <text>" unless -q: what was written where.
void Note(std::string_view text);
// "railyard: <text>" while a person watches (stderr is a terminal) or with -v; never with -q.
void Progress(std::string_view text);
// "railyard: <text>" with -v only.
void Detail(std::string_view text);

// Peak resident memory of this process so far, in MiB (getrusage).
double PeakMemoryMiB();

}  // namespace railyard::cli
