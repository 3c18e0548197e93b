#include "facts/facts_files.h"
#include "util/json_input.h"

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "util/content_hash.h"
#include "util/file.h"
#include "util/input_error.h"

namespace railyard {
namespace {

namespace fs = std::filesystem;

// Where a whole document that is not JSON broke, as line:column, and the usual cause when the file
// came from a gather tool. nlohmann's parser (through ParseJsonInput) is used only here, for where it stops.
std::string WhereNotJson(const std::string& shown, const std::string& text) {
  TextPlace place;
  try {
    (void)ParseJsonInput(text, shown);
    return fmt::format("{}: not JSON", shown);  // simdjson refused what nlohmann takes (invalid UTF-8 and the like)
  } catch (const InputError& e) {
    place = {e.line(), e.column()};
  }
  const size_t lead = text.find_first_not_of(" \t\r\n");
  const std::string_view head = lead == std::string::npos ? std::string_view() : std::string_view(text).substr(lead);
  std::string hint = " (truncated?)";
  if (head.starts_with("---")) {
    hint = ": `clush -b` / dshbak output, whose node headers are not JSON; gather with `clush -N` (one JSON line per host)";
  } else if (size_t colon = head.find(": {"); colon != std::string_view::npos && colon < 128 &&
                                              head.substr(0, colon).find_first_of(" \t{\"") == std::string_view::npos) {
    hint = ": lines carry a node prefix ('" + std::string(head.substr(0, colon)) +
           ": {'), as clush and pdsh print them; gather with `clush -N`";
  }
  return fmt::format("{}:{}:{}: neither one JSON document nor NDJSON{}", shown, place.line, place.column, hint);
}

// Reads a file in large blocks and hands out its lines (without the '\n'): getline on an istream
// costs more than the JSON parse of a facts line.
// A facts document (one line of NDJSON, or a whole file) is at most kMaxDocument bytes: a real host's
// facts are tens of kilobytes, and without a bound `doctor /dev/zero` reads until memory runs out.
constexpr size_t kMaxDocument = size_t{256} << 20;

class LineReader {
 public:
  LineReader(std::FILE* file, std::string shown) : file_(file), shown_(std::move(shown)), block_(1u << 22) {}
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
      if (end_ == block_.size()) {
        if (block_.size() >= kMaxDocument)
          throw FactsInputError(
              shown_, 0, 0, "",
              fmt::format("a line of more than {} MiB: no facts document is that long (not a facts file?)", kMaxDocument >> 20));
        block_.resize(block_.size() * 2);
      }
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
    for (size_t got; (got = std::fread(chunk, 1, sizeof chunk, file_)) > 0;) {
      out.append(chunk, got);
      if (out.size() > kMaxDocument)
        throw FactsInputError(shown_, 0, 0, "",
                              fmt::format("more than {} MiB in one document (not a facts file?)", kMaxDocument >> 20));
    }
    eof_ = true;
    return out;
  }
  bool failed() const { return std::ferror(file_) != 0; }

 private:
  std::FILE* file_;
  std::string shown_;
  std::vector<char> block_;
  size_t begin_ = 0, end_ = 0;
  bool eof_ = false;
};

// One document read from a facts file, in file order: a host's facts, a switch's, or the error that
// ended the file.
struct ReadDocument {
  int line = 0;         // 0: the file is one document
  uint64_t digest = 0;  // of the document's bytes, when the reader asked for digests
  std::string text;     // the bytes, when `known` said the reader has read them before (then no facts)
  std::optional<HostFacts> host;
  std::optional<SwitchFacts> switch_facts;
  std::unique_ptr<facts_files_detail::Examined> examined;  // what the reader's `examine` made of `host` (then freed)
  std::exception_ptr error;
};

using Examine = std::function<std::unique_ptr<facts_files_detail::Examined>(HostFacts&&)>;

// Runs the reader's `examine` on a host document and frees its facts, on the thread that parsed them.
// What `examine` throws becomes an error at the document's line.
void ExamineHost(ReadDocument& document, const Examine* examine, const std::string& shown) {
  if (!examine || !document.host) return;
  try {
    document.examined = (*examine)(std::move(*document.host));
  } catch (const FactsInputError&) {
    throw;
  } catch (const std::exception& e) {
    throw FactsInputError(shown, document.line, 0, "", e.what());
  }
  document.host.reset();
}

// One document's bytes parsed into a ReadDocument. `first` is true while no document of the file has
// been read: then text that is not JSON at all returns nullopt (the file may be one pretty-printed
// document, read whole); after the first, it is an error at its line.
std::optional<ReadDocument> ParseOne(std::string_view text, int line, const std::string& shown, bool switches_wanted,
                                     const std::function<bool(uint64_t)>* known, bool first, bool padded = false) {
  ReadDocument document;
  document.line = line;
  if (known) {
    ContentHash hash;
    hash.Update(text);
    document.digest = hash.Digest();
    if ((*known)(document.digest)) {
      document.text.assign(text.data(), text.size());
      return document;
    }
  }
  try {
    document.host = padded ? FactsFromPaddedJsonText(text) : FactsFromJsonText(text);
  } catch (const FactsDocumentError& e) {
    if (e.kind() == FactsDocumentError::Kind::kNotJson) {
      if (first) return std::nullopt;
      throw FactsInputError(shown, line, 0, "", "not JSON (a truncated or mixed-in line?)");
    }
    if (e.kind() != FactsDocumentError::Kind::kOtherSchema || e.schema() != kSwitchFactsSchema)
      throw FactsInputError(shown, line, 0, "", e.what());
    if (!switches_wanted)
      throw FactsInputError(shown, line, 0, "", "switch facts (railyard.switch-facts/1) where host facts were expected");
    try {
      document.switch_facts = ParseSwitchFactsJson(std::string(text), shown);
    } catch (const std::exception& error) {
      throw FactsInputError(shown, line, 0, "", error.what());
    }
  }
  return document;
}

// The first document of a file: its first non-blank line when that is JSON (the file is NDJSON), else
// the whole file read as one pretty-printed document (`railyard collect -o`), and then `whole` is set.
// Throws FactsInputError where neither is facts.
ReadDocument FirstDocument(LineReader& lines, std::string_view line, int number, const std::string& shown, bool switches_wanted,
                           const std::function<bool(uint64_t)>* known, bool& whole) {
  whole = false;
  if (std::optional<ReadDocument> document = ParseOne(line, number, shown, switches_wanted, known, true))
    return std::move(*document);
  whole = true;
  std::string text(line);
  text += '\n';
  text += lines.Rest();  // no seeking back: FACTS may be a pipe (/dev/stdin)
  if (lines.failed()) throw FactsInputError(shown, 0, 0, "", "read error");
  std::optional<ReadDocument> document = ParseOne(text, 0, shown, switches_wanted, known, true);
  if (!document) throw FactsInputError(WhereNotJson(shown, text));
  return std::move(*document);
}

// Parses the documents of `file` in order, handing each to `emit` (which returns false to stop).
// Throws FactsInputError naming file and line for what is not facts.
// With `known`, each document's digest is taken and, when known(digest), the document is handed on
// unparsed with its text.
void ParseDocuments(std::FILE* file, const std::string& shown, bool switches_wanted, const std::function<bool(uint64_t)>* known,
                    const std::function<bool(ReadDocument&&)>& emit) {
  // NDJSON (what `clush -N … railyard collect` writes) streams: one document per line, so memory
  // stays at a few hosts' facts however many hosts the file holds.
  LineReader lines(file, shown);
  std::string_view line;
  int number = 0;
  bool first = true, stopped = false;
  while (!stopped && lines.Next(line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    if (first) {
      first = false;
      bool whole = false;
      stopped = !emit(FirstDocument(lines, line, number, shown, switches_wanted, known, whole));
      if (whole) return;
      continue;
    }
    stopped = !emit(*ParseOne(line, number, shown, switches_wanted, known, false));
  }
  if (lines.failed()) throw FactsInputError(shown, 0, 0, "", "read error");
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

// NDJSON parsed on several threads: a reader cuts the file into batches of lines, workers parse them,
// and the caller's thread takes the documents in file order. A HostFacts line costs several times
// its simdjson parse in allocations (strings, maps), so one parser thread cannot keep up with the
// rules; two or more can. At most kBatchesAhead batches are read ahead of the caller, so memory
// stays at a few hundred hosts' facts whatever the file's size.
class ParallelParse {
 public:
  ParallelParse(std::FILE* file, std::string shown, bool switches_wanted, const Examine* examine)
      : file_(file), shown_(std::move(shown)), switches_wanted_(switches_wanted), examine_(examine) {}

  // Hands every document to `use` in order; rethrows the first error (a bad line stops the file
  // after the documents before it) and whatever `use` throws, after the threads have stopped.
  void Run(const std::function<void(ReadDocument&&)>& use) {
    const unsigned workers = std::clamp(std::thread::hardware_concurrency(), 2u, 4u);
    std::vector<std::thread> threads;
    threads.emplace_back([this] { Read(); });
    for (unsigned i = 0; i < workers; ++i) threads.emplace_back([this] { Work(); });
    try {
      while (std::shared_ptr<Batch> batch = NextInOrder()) {
        for (ReadDocument& document : batch->documents) use(std::move(document));
      }
    } catch (...) {
      Stop();
      for (std::thread& t : threads) t.join();
      throw;
    }
    for (std::thread& t : threads) t.join();
  }

 private:
  static constexpr size_t kLinesPerBatch = 64;
  static constexpr size_t kBatchesAhead = 16;

  struct Batch {
    std::string bytes;                                   // the lines, back to back
    std::vector<std::tuple<int, size_t, size_t>> lines;  // line number, offset, length
    std::vector<ReadDocument> documents;                 // in line order; the last may carry the error that ends the file
    bool done = false;
  };

  // Waits for room ahead of the caller; false when the caller has stopped.
  bool Submit(std::shared_ptr<Batch> batch, bool to_parse) {
    if (to_parse) batch->bytes.append(kFactsJsonPadding, ' ');  // each line is parsed where it lies
    std::unique_lock lock(mutex_);
    room_.wait(lock, [&] { return order_.size() < kBatchesAhead || stopped_; });
    if (stopped_) return false;
    order_.push_back(batch);
    if (to_parse) {
      work_.push_back(std::move(batch));
      work_ready_.notify_one();
    } else {
      done_.notify_all();
    }
    return true;
  }

  void Read() {
    try {
      LineReader lines(file_, shown_);
      std::string_view line;
      int number = 0;
      bool first = true;
      auto batch = std::make_shared<Batch>();
      while (lines.Next(line)) {
        ++number;
        if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
        if (first) {  // NDJSON, or one pretty-printed document? The first line tells, read here.
          first = false;
          bool whole = false;
          if (!Submit(ToBatch(FirstDocument(lines, line, number, shown_, switches_wanted_, nullptr, whole)), false)) return;
          if (whole) break;
          continue;
        }
        batch->lines.emplace_back(number, batch->bytes.size(), line.size());
        batch->bytes.append(line);
        if (batch->lines.size() == kLinesPerBatch) {
          auto next = std::make_shared<Batch>();
          next->bytes.reserve(batch->bytes.size() + batch->bytes.size() / 4 + kFactsJsonPadding);  // hosts are alike
          if (!Submit(std::exchange(batch, std::move(next)), true)) return;
        }
      }
      if (!batch->lines.empty() && !Submit(std::move(batch), true)) return;
      if (lines.failed()) throw FactsInputError(shown_, 0, 0, "", "read error");
    } catch (...) {
      ReadDocument failed;
      failed.error = std::current_exception();
      Submit(ToBatch(std::move(failed)), false);
    }
    std::lock_guard lock(mutex_);
    read_all_ = true;
    work_ready_.notify_all();
    done_.notify_all();
  }

  // A batch already parsed (the first document, an error): it goes straight into the order.
  static std::shared_ptr<Batch> ToBatch(ReadDocument&& document) {
    auto batch = std::make_shared<Batch>();
    batch->documents.push_back(std::move(document));
    batch->done = true;
    return batch;
  }

  void Work() {
    for (;;) {
      std::shared_ptr<Batch> batch;
      {
        std::unique_lock lock(mutex_);
        work_ready_.wait(lock, [&] { return !work_.empty() || read_all_ || stopped_; });
        if (stopped_ || work_.empty()) return;
        batch = std::move(work_.front());
        work_.pop_front();
      }
      batch->documents.reserve(batch->lines.size());
      for (const auto& [number, offset, length] : batch->lines) {
        try {
          batch->documents.push_back(*ParseOne(std::string_view(batch->bytes).substr(offset, length), number, shown_,
                                               switches_wanted_, nullptr, false, true));
          ExamineHost(batch->documents.back(), examine_, shown_);
        } catch (...) {
          if (!batch->documents.empty() && batch->documents.back().line == number) batch->documents.pop_back();
          ReadDocument failed;
          failed.line = number;
          failed.error = std::current_exception();
          batch->documents.push_back(std::move(failed));
          break;
        }
      }
      std::string().swap(batch->bytes);
      std::lock_guard lock(mutex_);
      batch->done = true;
      done_.notify_all();
    }
  }

  // The next batch in file order once parsed; null at the end.
  std::shared_ptr<Batch> NextInOrder() {
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return (!order_.empty() && order_.front()->done) || (order_.empty() && read_all_); });
    if (order_.empty()) return nullptr;
    std::shared_ptr<Batch> batch = std::move(order_.front());
    order_.pop_front();
    room_.notify_one();
    return batch;
  }

  void Stop() {
    std::lock_guard lock(mutex_);
    stopped_ = true;
    room_.notify_all();
    work_ready_.notify_all();
    done_.notify_all();
  }

  std::FILE* file_;
  const std::string shown_;
  const bool switches_wanted_;
  const Examine* examine_;
  std::mutex mutex_;
  std::condition_variable room_, work_ready_, done_;
  std::deque<std::shared_ptr<Batch>> order_;  // read, in file order, until the caller takes them
  std::deque<std::shared_ptr<Batch>> work_;   // read, not yet taken by a worker
  bool read_all_ = false, stopped_ = false;
};

void ReadFactsFile(const fs::path& path, const std::function<void(ReadDocument&&)>& each, bool switches_wanted,
                   const std::function<bool(uint64_t)>* known, const Examine* examine = nullptr) {
  // "-" is standard input (`clush -N … railyard collect | railyard doctor -`), named "(stdin)" in messages.
  const bool stdin_path = path == "-";
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> owned(nullptr, &std::fclose);
  if (!stdin_path) {
    owned.reset(std::fopen(path.c_str(), "rb"));
    if (!owned) throw FactsInputError(path.string(), 0, 0, "", "cannot read the file");
  }
  std::FILE* file = stdin_path ? stdin : owned.get();
  const std::string shown = ShownPath(path.string());
  auto use = [&](ReadDocument&& document) {
    if (document.error) std::rethrow_exception(document.error);
    ExamineHost(document, examine, shown);  // the documents this thread parsed itself
    try {
      each(std::move(document));
    } catch (const FactsInputError&) {
      throw;
    } catch (const std::exception& e) {
      throw FactsInputError(shown, document.line, 0, "", e.what());
    }
  };
  // A large file or a pipe: parse on other threads while this one uses each document (the doctor's
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
  if (!known) {
    ParallelParse(file, shown, switches_wanted, examine).Run(use);
    return;
  }
  // The ledger's reader asks `known` of every line, and its answer comes from the ledger: one parser.
  DocumentQueue queue;
  std::thread parser([&] {
    try {
      ParseDocuments(file, shown, switches_wanted, known,
                     [&](ReadDocument&& document) { return queue.Push(std::move(document)); });
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

namespace {

// Every document of every path (a file, "-", or a directory of *.json and *.ndjson read in name order).
void ReadFactsPaths(const std::vector<std::string>& paths, const std::function<void(ReadDocument&&)>& use, bool switches_wanted,
                    const Examine* examine) {
  for (const std::string& p : paths) {
    std::error_code ec;
    if (!fs::is_directory(p, ec)) {
      ReadFactsFile(p, use, switches_wanted, nullptr, examine);
      continue;
    }
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(p, ec)) {
      std::string ext = entry.path().extension().string();
      if (entry.is_regular_file() && (ext == ".json" || ext == ".ndjson")) files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) throw FactsInputError(p, 0, 0, "", "no *.json or *.ndjson facts in the directory");
    for (const fs::path& f : files) ReadFactsFile(f, use, switches_wanted, nullptr, examine);
  }
}

}  // namespace

void ForEachFacts(const std::vector<std::string>& paths, const std::function<void(HostFacts&&)>& each,
                  const std::function<void(SwitchFacts&&)>& each_switch) {
  ReadFactsPaths(
      paths,
      [&](ReadDocument&& document) {
        if (document.host)
          each(std::move(*document.host));
        else
          each_switch(std::move(*document.switch_facts));
      },
      each_switch != nullptr, nullptr);
}

void facts_files_detail::ForEachExaminedFacts(const std::vector<std::string>& paths, const Examine& examine,
                                              const std::function<void(std::unique_ptr<Examined>&&)>& each,
                                              const std::function<void(SwitchFacts&&)>& each_switch) {
  ReadFactsPaths(
      paths,
      [&](ReadDocument&& document) {
        if (document.switch_facts)
          each_switch(std::move(*document.switch_facts));
        else
          each(std::move(document.examined));
      },
      each_switch != nullptr, &examine);
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
