// Reading FACTS arguments: the files `railyard collect` writes (one document, or NDJSON gathered
// from many hosts), directories of them, or "-" for standard input. Doctor, the ledger and rollout all
// read facts this way.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "facts/host_facts.h"
#include "facts/switch_facts.h"

namespace railyard {

// A FACTS argument that cannot be read: names the file and, for NDJSON, the line.
class FactsInputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Calls `each` for every HostFacts in `paths`: a file holding one document, a file of NDJSON
// (one document per line), or a directory of such files (*.json, *.ndjson, sorted by name).
void ForEachFacts(const std::vector<std::string>& paths, const std::function<void(HostFacts&&)>& each);
// The same, with switch facts (railyard.switch-facts/1) in the stream given to `each_switch`; the
// form above refuses them with an error naming the file.
void ForEachFacts(const std::vector<std::string>& paths, const std::function<void(HostFacts&&)>& each,
                  const std::function<void(SwitchFacts&&)>& each_switch);

}  // namespace railyard
