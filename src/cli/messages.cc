#include "cli/messages.h"

#include <sys/resource.h>
#include <unistd.h>

#include <iostream>

namespace railyard::cli {
namespace {

Verbosity verbosity = Verbosity::kNormal;

void Say(std::string_view prefix, std::string_view text) { std::cerr << "railyard: " << prefix << text << "\n"; }

}  // namespace

void SetVerbosity(Verbosity v) { verbosity = v; }
Verbosity CurrentVerbosity() { return verbosity; }

void Warn(std::string_view text) {
  if (verbosity != Verbosity::kQuiet) Say("warning: ", text);
}

void Note(std::string_view text) {
  if (verbosity != Verbosity::kQuiet) Say("", text);
}

void Progress(std::string_view text) {
  if (verbosity == Verbosity::kVerbose || (verbosity == Verbosity::kNormal && ::isatty(STDERR_FILENO))) Say("", text);
}

void Detail(std::string_view text) {
  if (verbosity == Verbosity::kVerbose) Say("", text);
}

double PeakMemoryMiB() {
  struct rusage usage {};
  ::getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux: KiB
}

}  // namespace railyard::cli
