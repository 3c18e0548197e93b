#include "facts/facts_files.h"
#include "util/json_input.h"

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <cstring>
#include <filesystem>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "util/content_hash.h"

namespace railyard {
namespace {

namespace fs = std::filesystem;

// Where a whole document that is not JSON broke, as line:column, and the usual cause when the file
// came from a gather tool. nlohmann's parser is used only here, for the byte it stops at.
std::string WhereNotJson(const std::string& shown, const std::string& text) {
  size_t byte = 0;
  try {
    nlohmann::json parsed = nlohmann::json::parse(text);
    (void)parsed;
    return fmt::format("{}: not JSON", shown);  // simdjson refused what nlohmann takes (invalid UTF-8 and the like)
  } catch (const nlohmann::json::parse_error& e) {
    byte = e.byte;
  }
  const TextPlace place = PlaceOfOffset(text, byte > 0 ? byte - 1 : 0);
  const size_t lead = text.find_first_not_of(" \t\r\n");
  const std::string_view head = lead == std::string::npos ? std::string_view() : std::string_view(text).substr(lead);
  std::string hint = " (truncated?)";
  if (head.starts_with("---")) {
    hint = ": `clush -b` / dshbak output, whose node headers are not JSON; gather with `clush -N` (one JSON line per host)";
  } else if (size_t colon = head.find(": {"); colon != std::string_view::npos && colon < 128 &&
             head.substr(0, colon).find_first_of(" \t{\"") == std::string_view::npos) {
    hint = ": lines carry a node prefix ('" + std::string(head.substr(0, colon)) + ": {'), as clush and pdsh print them; gather with `clush -N`";
  }
  return fmt::format("{}:{}:{}: neither one JSON document nor NDJSON{}", shown, place.line, place.column, hint);
}

// Reads a file in large blocks and hands out its lines (without the '\n'): getline on an istream
// costs more than the JSON parse of a facts line.
class LineReader {
 public:
  explicit LineReader(std::FILE* file) : file_(file), block_(1u << 22) {}
  bool Next(std::string_view& line) {
    for (;;) {
      if (const char* nl = static_cast<const char*>(std::memchr(block_.data() + begin_, '\n', end_ - begin_))) {
        line = std::string_view(block_.data() + begin_, static_cast<size_t>(nl - (block_.data() + begin_)));
        begin_ = static_cast<size_t>(nl - block_.data()) + 1;
        return true;
      }
      if (eof_) {
        if (begin_ == end_) return false;
        line = std::string_view(block_.data() + begin_, end_ - begin_);  // a last line without '\n'
        begin_ = end_;
        return true;
      }
      // Keep the partial line, grow when one line outgrows the block, read more.
      std::memmove(block_.data(), block_.data() + begin_, end_ - begin_);
      end_ -= begin_;
      begin_ = 0;
      if (end_ == block_.size()) block_.resize(block_.size() * 2);
      const size_t got = std::fread(block_.data() + end_, 1, block_.size() - end_, file_);
      if (got == 0) eof_ = true;
      end_ += got;
    }
  }
  // The rest of the file after the lines handed out so far.
  std::string Rest() {
    std::string out(block_.data() + begin_, end_ - begin_);
    begin_ = end_;
    char chunk[1 << 16];
    for (size_t got; (got = std::fread(chunk, 1, sizeof chunk, file_)) > 0;) out.append(chunk, got);
    eof_ = true;
    return out;
  }
  bool failed() const { return std::ferror(file_) != 0; }

 private:
  std::FILE* file_;
  std::vector<char> block_;
  size_t begin_ = 0, end_ = 0;
  bool eof_ = false;
};

// One document read from a facts file, in file order: a host's facts, a switch's, or the error that
// ended the file.
struct ReadDocument {
  int line = 0;  // 0: the file is one document
  uint64_t digest = 0;  // of the document's bytes, when the reader asked for digests
  std::string text;     // the bytes, when `known` said the reader has read them before (then no facts)
  std::optional<HostFacts> host;
  std::optional<SwitchFacts> switch_facts;
  std::exception_ptr error;
};

// Parses the documents of `file` in order, handing each to `emit` (which returns false to stop).
// Throws FactsInputError naming file and line for what is not facts.
// With `known`, each document's digest is taken and, when known(digest), the document is handed on
// unparsed with its text.
void ParseDocuments(std::FILE* file, const std::string& shown, bool switches_wanted, const std::function<bool(uint64_t)>* known,
                    const std::function<bool(ReadDocument&&)>& emit) {
  // One document: false when the text is not JSON at all (the caller decides what that means).
  bool stopped = false;
  auto parse = [&](std::string_view text, int line) -> bool {
    ReadDocument document;
    document.line = line;
    if (known) {
      ContentHash hash;
      hash.Update(text);
      document.digest = hash.Digest();
      if ((*known)(document.digest)) {
        document.text.assign(text.data(), text.size());
        stopped = stopped || !emit(std::move(document));
        return true;
      }
    }
    try {
      document.host = FactsFromJsonText(text);
    } catch (const FactsDocumentError& e) {
      if (e.kind() == FactsDocumentError::Kind::kNotJson) return false;
      if (e.kind() != FactsDocumentError::Kind::kOtherSchema || e.schema() != kSwitchFactsSchema) throw FactsInputError(shown, line, 0, "", e.what());
      if (!switches_wanted) throw FactsInputError(shown, line, 0, "", "switch facts (railyard.switch-facts/1) where host facts were expected");
      try {
        document.switch_facts = ParseSwitchFactsJson(std::string(text), shown);
      } catch (const std::exception& error) {
        throw FactsInputError(shown, line, 0, "", error.what());
      }
    }
    stopped = stopped || !emit(std::move(document));
    return true;
  };
  // NDJSON (what `clush -N … railyard collect` writes) streams: one document per line, so memory
  // stays at a few hosts' facts however many hosts the file holds. A file whose first line is not
  // a whole document is one pretty-printed document (`railyard collect -o`).
  LineReader lines(file);
  std::string_view line;
  int number = 0, documents = 0;
  std::string whole;
  while (!stopped && lines.Next(line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    if (parse(line, number)) {
      ++documents;
      continue;
    }
    if (documents > 0) throw FactsInputError(shown, number, 0, "", "not JSON (a truncated or mixed-in line?)");
    whole.assign(line.data(), line.size());  // not NDJSON: the file is one document, read whole below
    whole += '\n';
    whole += lines.Rest();  // no seeking back: FACTS may be a pipe (/dev/stdin)
    break;
  }
  if (lines.failed()) throw FactsInputError(shown, 0, 0, "", "read error");
  if (stopped || documents > 0 || whole.empty()) return;
  if (!parse(whole, 0)) throw FactsInputError(WhereNotJson(shown, whole));
}

// A bounded first-in first-out hand-over from the thread that parses to the one that uses the facts.
class DocumentQueue {
 public:
  bool Push(ReadDocument&& document) {
    std::unique_lock lock(mutex_);
    not_full_.wait(lock, [&] { return items_.size() < kCapacity || stopped_; });
    if (stopped_) return false;
    items_.push_back(std::move(document));
    not_empty_.notify_one();
    return true;
  }
  std::optional<ReadDocument> Pop() {
    std::unique_lock lock(mutex_);
    not_empty_.wait(lock, [&] { return !items_.empty() || closed_; });
    if (items_.empty()) return std::nullopt;
    ReadDocument out = std::move(items_.front());
    items_.pop_front();
    not_full_.notify_one();
    return out;
  }
  void Close() {  // the producer is done
    std::lock_guard lock(mutex_);
    closed_ = true;
    not_empty_.notify_all();
  }
  void Stop() {  // the consumer is done: a producer waiting to push gives up
    std::lock_guard lock(mutex_);
    stopped_ = true;
    not_full_.notify_all();
  }

 private:
  static constexpr size_t kCapacity = 64;
  std::mutex mutex_;
  std::condition_variable not_full_, not_empty_;
  std::deque<ReadDocument> items_;
  bool closed_ = false, stopped_ = false;
};

void ReadFactsFile(const fs::path& path, const std::function<void(ReadDocument&&)>& each, bool switches_wanted,
                   const std::function<bool(uint64_t)>* known) {
  // "-" is standard input (`clush -N … railyard collect | railyard doctor -`), named "(stdin)" in messages.
  const bool stdin_path = path == "-";
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> owned(nullptr, &std::fclose);
  if (!stdin_path) {
    owned.reset(std::fopen(path.c_str(), "rb"));
    if (!owned) throw FactsInputError(path.string(), 0, 0, "", "cannot read the file");
  }
  std::FILE* file = stdin_path ? stdin : owned.get();
  const std::string shown = stdin_path ? "(stdin)" : path.string();
  auto use = [&](ReadDocument&& document) {
    if (document.error) std::rethrow_exception(document.error);
    try {
      each(std::move(document));
    } catch (const FactsInputError&) {
      throw;
    } catch (const std::exception& e) {
      throw FactsInputError(shown, document.line, 0, "", e.what());
    }
  };
  // A large file or a pipe: parse on a second thread while this one uses each document (the doctor's
  // rules, the ledger's import), in file order. A small file is not worth a thread.
  std::error_code ec;
  const bool large = stdin_path || !fs::is_regular_file(path, ec) || fs::file_size(path, ec) > (8u << 20);
  if (!large) {
    ParseDocuments(file, shown, switches_wanted, known, [&](ReadDocument&& document) {
      use(std::move(document));
      return true;
    });
    return;
  }
  DocumentQueue queue;
  std::thread parser([&] {
    try {
      ParseDocuments(file, shown, switches_wanted, known, [&](ReadDocument&& document) { return queue.Push(std::move(document)); });
    } catch (...) {
      ReadDocument failed;
      failed.error = std::current_exception();
      queue.Push(std::move(failed));
    }
    queue.Close();
  });
  try {
    while (std::optional<ReadDocument> document = queue.Pop()) use(std::move(*document));
  } catch (...) {
    queue.Stop();
    parser.join();
    throw;
  }
  parser.join();
}

}  // namespace

void ForEachFacts(const std::vector<std::string>& paths, const std::function<void(HostFacts&&)>& each) {
  ForEachFacts(paths, each, nullptr);
}

void ForEachFacts(const std::vector<std::string>& paths, const std::function<void(HostFacts&&)>& each,
                  const std::function<void(SwitchFacts&&)>& each_switch) {
  auto use = [&](ReadDocument&& document) {
    if (document.host) each(std::move(*document.host));
    else each_switch(std::move(*document.switch_facts));
  };
  for (const std::string& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<fs::path> files;
      for (const auto& entry : fs::directory_iterator(p, ec)) {
        std::string ext = entry.path().extension().string();
        if (entry.is_regular_file() && (ext == ".json" || ext == ".ndjson")) files.push_back(entry.path());
      }
      std::sort(files.begin(), files.end());
      if (files.empty()) throw FactsInputError(p, 0, 0, "", "no *.json or *.ndjson facts in the directory");
      for (const fs::path& f : files) ReadFactsFile(f, use, each_switch != nullptr, nullptr);
    } else {
      ReadFactsFile(p, use, each_switch != nullptr, nullptr);
    }
  }
}

void ForEachFactsDocument(const std::string& path, const std::function<bool(uint64_t)>& known,
                          const std::function<void(FactsDocument&&)>& each) {
  ReadFactsFile(
      path,
      [&](ReadDocument&& document) {
        FactsDocument out;
        out.line = document.line;
        out.digest = document.digest;
        out.text = std::move(document.text);
        out.facts = std::move(document.host);
        each(std::move(out));
      },
      false, &known);
}

}  // namespace railyard
