#include "facts/facts_files.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace railyard {
namespace {

namespace fs = std::filesystem;

void ReadFactsFile(const fs::path& path, const std::function<void(HostFacts&&)>& each,
                   const std::function<void(SwitchFacts&&)>& each_switch) {
  // "-" is standard input (`clush -N … railyard collect | railyard doctor -`), named "(stdin)" in messages.
  std::ifstream file;
  const bool stdin_path = path == "-";
  if (!stdin_path) {
    file.open(path, std::ios::binary);
    if (!file) throw FactsInputError(path.string() + ": cannot read the file");
  }
  std::istream& in = stdin_path ? std::cin : file;
  const fs::path shown = stdin_path ? fs::path("(stdin)") : path;
  auto build = [&](const nlohmann::json& j, int line) {
    try {
      if (j.is_object() && j.contains("schema") && j["schema"] == kSwitchFactsSchema) {
        if (!each_switch) throw std::runtime_error("switch facts (railyard.switch-facts/1) where host facts were expected");
        each_switch(ParseSwitchFactsJson(j.dump(), shown.string()));
        return;
      }
      each(FactsFromJson(j));
    } catch (const FactsInputError&) {
      throw;
    } catch (const std::exception& e) {
      throw FactsInputError(line ? fmt::format("{}:{}: {}", shown.string(), line, e.what()) : fmt::format("{}: {}", shown.string(), e.what()));
    }
  };
  // NDJSON (what `clush … railyard collect` writes) streams: one document per line, so memory
  // stays at one host's facts however many hosts the file holds. A file whose first line is not
  // a whole document is one pretty-printed document (`railyard collect -o`).
  std::string line, first;
  int number = 0, documents = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded()) {
      if (documents == 0) {  // not NDJSON: the file is one document, read whole below
        first = line + "\n";
        break;
      }
      throw FactsInputError(fmt::format("{}:{}: not JSON (a truncated or mixed-in line?)", shown.string(), number));
    }
    build(j, number);
    ++documents;
  }
  if (documents > 0) return;
  std::stringstream buffer;
  buffer << first;  // no seeking back: FACTS may be a pipe (/dev/stdin)
  if (in) buffer << in.rdbuf();
  const std::string text = buffer.str();
  nlohmann::json whole;
  try {
    whole = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // Where it broke, as line:column, and the usual cause when the file came from a gather tool.
    const size_t at = std::min<size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
    const size_t line_start = at == 0 ? 0 : text.rfind('\n', at - 1) + 1;  // npos + 1 == 0
    const int where_line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
    const size_t lead = text.find_first_not_of(" \t\r\n");
    const std::string_view head = lead == std::string::npos ? std::string_view() : std::string_view(text).substr(lead);
    std::string hint = " (truncated?)";
    if (head.starts_with("---")) {
      hint = ": `clush -b` / dshbak output, whose node headers are not JSON; gather with `clush -N` (one JSON line per host)";
    } else if (size_t colon = head.find(": {"); colon != std::string_view::npos && colon < 128 &&
               head.substr(0, colon).find_first_of(" \t{\"") == std::string_view::npos) {
      hint = ": lines carry a node prefix ('" + std::string(head.substr(0, colon)) + ": {'), as clush and pdsh print them; gather with `clush -N`";
    }
    throw FactsInputError(fmt::format("{}:{}:{}: neither one JSON document nor NDJSON{}", shown.string(), where_line, at - line_start + 1, hint));
  }
  build(whole, 0);
}

}  // namespace

void ForEachFacts(const std::vector<std::string>& paths, const std::function<void(HostFacts&&)>& each) {
  ForEachFacts(paths, each, nullptr);
}

void ForEachFacts(const std::vector<std::string>& paths, const std::function<void(HostFacts&&)>& each,
                  const std::function<void(SwitchFacts&&)>& each_switch) {
  for (const std::string& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<fs::path> files;
      for (const auto& entry : fs::directory_iterator(p, ec)) {
        std::string ext = entry.path().extension().string();
        if (entry.is_regular_file() && (ext == ".json" || ext == ".ndjson")) files.push_back(entry.path());
      }
      std::sort(files.begin(), files.end());
      if (files.empty()) throw FactsInputError(p + ": no *.json or *.ndjson facts in the directory");
      for (const fs::path& f : files) ReadFactsFile(f, each, each_switch);
    } else {
      ReadFactsFile(p, each, each_switch);
    }
  }
}

}  // namespace railyard
