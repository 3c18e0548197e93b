// Reading FACTS arguments: the files `railyard collect` writes (one document, or NDJSON gathered
// from many hosts), directories of them, or "-" for standard input. Doctor, the ledger and rollout all
// read facts this way.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "facts/host_facts.h"
#include "facts/switch_facts.h"
#include "util/input_error.h"

namespace railyard {

// A FACTS argument that cannot be read: names the file and, for NDJSON, the line.
class FactsInputError : public InputError {
 public:
  using InputError::InputError;
};

// Calls `each` for every HostFacts in `paths`: a file holding one document, a file of NDJSON
// (one document per line), or a directory of such files (*.json, *.ndjson, sorted by name).
void ForEachFacts(const std::vector<std::string>& paths, const std::function<void(HostFacts&&)>& each);
// The same, with switch facts (railyard.switch-facts/1) in the stream given to `each_switch`; the
// form above refuses them with an error naming the file.
void ForEachFacts(const std::vector<std::string>& paths, const std::function<void(HostFacts&&)>& each,
                  const std::function<void(SwitchFacts&&)>& each_switch);

// ForEachFacts with each host's work moved onto the threads that parse: `examine` runs on a host's facts
// there (on a large file several at once, so it may only read what it shares) and the facts are freed
// there; `each` receives what it returned, in file order, on the caller's thread. What `examine` throws
// stops the file at that document, as a parse error does.
// `each` takes what `examine` returns, by type: ForEachExaminedFacts(paths, [&](HostFacts&& f) { return
// doctor.Examine(f); }, [&](Doctor::HostExamination&& e) { ... }, ...). The result may be move-only.
namespace facts_files_detail {
struct Examined {  // one host's result, on its way from the parsing thread to the caller's
  virtual ~Examined() = default;
};
void ForEachExaminedFacts(const std::vector<std::string>& paths,
                          const std::function<std::unique_ptr<Examined>(HostFacts&&)>& examine,
                          const std::function<void(std::unique_ptr<Examined>&&)>& each,
                          const std::function<void(SwitchFacts&&)>& each_switch);
}  // namespace facts_files_detail

template <class Examine, class Each>
void ForEachExaminedFacts(const std::vector<std::string>& paths, Examine&& examine, Each&& each,
                          const std::function<void(SwitchFacts&&)>& each_switch) {
  using Result = std::invoke_result_t<Examine&, HostFacts&&>;
  struct Box : facts_files_detail::Examined {
    explicit Box(Result v) : value(std::move(v)) {}
    Result value;
  };
  facts_files_detail::ForEachExaminedFacts(
      paths,
      [&](HostFacts&& f) -> std::unique_ptr<facts_files_detail::Examined> {
        return std::make_unique<Box>(examine(std::move(f)));
      },
      [&](std::unique_ptr<facts_files_detail::Examined>&& e) { each(std::move(static_cast<Box&>(*e).value)); }, each_switch);
}

// One document of a facts file as read for a reader that remembers documents by their bytes (the
// ledger's re-import): the 64-bit digest of its bytes (util/content_hash.h) and, unless the reader
// said it knows that digest, its facts; a known document comes unparsed, with its text.
struct FactsDocument {
  int line = 0;  // 0: the file is one document
  uint64_t digest = 0;
  std::optional<HostFacts> facts;  // empty when known(digest)
  std::string text;                // the document's bytes when known(digest)
};
// Reads one facts file (or "-") as ForEachFacts does, asking `known` (from the thread that parses)
// before parsing each document. Switch facts are refused.
void ForEachFactsDocument(const std::string& path, const std::function<bool(uint64_t)>& known,
                          const std::function<void(FactsDocument&&)>& each);

}  // namespace railyard
