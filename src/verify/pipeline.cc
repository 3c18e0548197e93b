#include "verify/pipeline.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <future>
#include <memory>
#include <mutex>
#include <set>

#include <fmt/format.h>

#include "parse/iblinkinfo.h"
#include "parse/ibnetdiscover.h"
#include "parse/lldpctl.h"
#include "parse/switch_lldp.h"
#include "planfile/names.h"
#include "util/file.h"
#include "util/input_error.h"

namespace railyard {
namespace {

namespace fs = std::filesystem;

// A report that yielded no record of its format is not that format (garbage, truncated to nothing,
// UTF-16): an input error naming the file. One that was read in part stays, with its warnings.
void RequireRecords(const AdjacencyReport& r, const std::string& file, std::string_view format) {
  if (!r.adjacencies.empty() || r.warnings.empty()) return;
  throw InputError(ShownPath(file), r.warnings.front().line, 0, "",
                   fmt::format("no {} record could be read: {}", format, r.warnings.front().message));
}

void RequirePlanes(const PlannedFabric& plan, const std::set<std::string, std::less<>>& planes) {
  for (const std::string& plane : planes) {
    bool known = std::any_of(plan.planes.begin(), plan.planes.end(), [&](const PlannedPlane& p) { return p.name == plane; });
    if (known) continue;
    std::string all;
    for (const PlannedPlane& p : plan.planes) all += (all.empty() ? "" : ", ") + p.name;
    throw UsageError(fmt::format("--plane {}: the plan has no such plane (it has {})", plane, all));
  }
}

struct Capture {
  std::string device;
  fs::path path;
  bool lldpctl;  // else a switch's LLDP table
};

AdjacencyReport ReadCapture(const Capture& c) {
  std::string text = ReadWholeFile(c.path.string());
  if (text.size() >= 2 && ((text[0] == '\xff' && text[1] == '\xfe') || (text[0] == '\xfe' && text[1] == '\xff'))) {
    throw InputError(c.path.string(), 0, 0, "",
                     "UTF-16 text (a Windows export?): convert it to UTF-8 first (iconv -f UTF-16 -t UTF-8)");
  }
  AdjacencyReport report = c.lldpctl ? ParseLldpctl(text, c.device, c.path.string())  // any lldpctl -f form
                                     : ParseSwitchLldpTable(text, c.device, c.path.string());
  RequireRecords(report, c.path.string(), c.lldpctl ? "lldpctl" : "switch LLDP table");
  return report;
}

// The plan and the LLDP captures, on two threads (see the header); returns with every capture observed.
class CapturePipeline {
 public:
  CapturePipeline(const VerifyInputs& in, const VerifyMessages& messages) : in_(in), messages_(messages) {
    for (auto& [device, path] : CapturesByDevice(in.lldp)) captures_.push_back({device, path, true});
    for (auto& [device, path] : CapturesByDevice(in.switch_lldp)) captures_.push_back({device, path, false});
    reports_.resize(captures_.size());
    parsed_.assign(captures_.size(), 0);
  }

  void Run() {
    auto plan_then_parse = std::async(std::launch::async, [&] {
      try {
        LoadPlan();
      } catch (...) {
        next_ = captures_.size();  // stop the other worker at its next file
        throw;
      }
      ParseQueue();
    });
    std::exception_ptr parse_error;
    try {
      ParseQueue();
    } catch (...) {
      parse_error = std::current_exception();
      next_ = captures_.size();
    }
    plan_then_parse.get();
    if (parse_error) std::rethrow_exception(parse_error);
  }

  std::unique_ptr<PlannedFabric> plan;
  std::unique_ptr<NameResolver> names;
  std::unique_ptr<VerifySession> session;
  std::set<std::string> reporting;  // a capture read whole covers its device; a partly unreadable one does not
  size_t captures() const { return captures_.size(); }

 private:
  void LoadPlan() {
    auto fabric = std::make_unique<PlannedFabric>(LoadPlannedFabric(in_.plan));
    if (!fabric->index_note.empty() && messages_.note) messages_.note(fabric->index_note);
    auto resolver = std::make_unique<NameResolver>(*fabric);
    if (!in_.names.empty()) resolver->LoadMap(in_.names);
    if (!in_.ibdev2netdev.empty()) resolver->LoadIbdev2netdevDir(in_.ibdev2netdev);
    RequirePlanes(*fabric, in_.options.planes);
    auto ready = std::make_unique<VerifySession>(*fabric, *resolver, in_.options);
    std::lock_guard<std::mutex> lock(mutex_);
    plan = std::move(fabric);
    names = std::move(resolver);
    session = std::move(ready);
    JudgeReady();
  }

  void ParseQueue() {
    for (size_t i = next_++; i < captures_.size(); i = next_++) {
      AdjacencyReport report = ReadCapture(captures_[i]);
      std::lock_guard<std::mutex> lock(mutex_);
      reports_[i] = std::move(report);
      parsed_[i] = 1;
      JudgeReady();
    }
  }

  // With mutex_ held: observes, in input order, every parsed capture up to the first not yet parsed.
  void JudgeReady() {
    if (!session) return;
    for (; judged_ < captures_.size() && parsed_[judged_]; ++judged_) {
      AdjacencyReport& r = reports_[judged_];
      if (messages_.warn) {
        for (const ParseWarning& w : r.warnings) messages_.warn(w.message);
      }
      if (r.warnings.empty()) reporting.insert(captures_[judged_].device);
      session->Observe({r.adjacencies, r.warnings.empty()});
      r = AdjacencyReport();
    }
  }

  const VerifyInputs& in_;
  const VerifyMessages& messages_;
  std::vector<Capture> captures_;
  std::vector<AdjacencyReport> reports_;
  std::vector<char> parsed_;
  std::mutex mutex_;
  size_t judged_ = 0;
  std::atomic<size_t> next_{0};
};

}  // namespace

std::vector<std::pair<std::string, std::string>> CapturesByDevice(const std::vector<std::string>& args) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& arg : args) {
    std::string device;
    fs::path path = arg;
    size_t eq = arg.find('=');
    if (eq != std::string::npos && !fs::exists(arg)) {
      device = arg.substr(0, eq);
      path = arg.substr(eq + 1);
    }
    if (fs::is_directory(path)) {
      std::vector<fs::path> files;
      for (const auto& entry : fs::directory_iterator(path)) {
        if (entry.is_regular_file()) files.push_back(entry.path());
      }
      std::sort(files.begin(), files.end());
      for (const fs::path& f : files) {
        std::string name = f.filename().string();
        out.emplace_back(name.substr(0, name.find('.')), f.string());
      }
    } else {
      if (device.empty()) {
        std::string name = path.filename().string();
        device = name.substr(0, name.find('.'));
      }
      out.emplace_back(device, path.string());
    }
  }
  return out;
}

VerifyRun RunVerify(const VerifyInputs& in, const VerifyMessages& messages) {
  // Nothing observed is nothing verified: without a capture every planned link would be "unverified"
  // and the run would exit 0, as if the cabling had passed.
  if (in.lldp.empty() && in.switch_lldp.empty() && in.ibnetdiscover.empty() && in.iblinkinfo.empty() && in.labels.empty())
    throw UsageError(
        "nothing to verify: give what was observed (--ibnetdiscover, --lldp, --switch-lldp, --iblinkinfo or --labels)");
  CapturePipeline pipeline(in, messages);
  pipeline.Run();
  VerifySession& session = *pipeline.session;
  auto observe_whole = [&](AdjacencyReport& report, const std::string& file) {
    if (messages.warn) {
      for (ParseWarning& w : report.warnings) messages.warn(fmt::format("{}:{}: {}", file, w.line, w.message));
    }
    session.Observe({report.adjacencies, report.warnings.empty()});
  };
  for (const std::string& file : in.ibnetdiscover) {
    AdjacencyReport report = ParseIbnetdiscover(ReadWholeFile(file), ShownPath(file));
    RequireRecords(report, file, "ibnetdiscover");
    // A fabric's ibnetdiscover always lists links: none at all is a capture that failed, never a
    // fabric whose every cable is "unverified".
    if (report.adjacencies.empty())
      throw InputError(ShownPath(file), 0, 0, "", "no link in it (empty, or not ibnetdiscover output): capture it again");
    observe_whole(report, file);
  }
  for (const std::string& file : in.iblinkinfo) {
    IblinkinfoReport r = ParseIblinkinfo(ReadWholeFile(file), ShownPath(file));
    RequireRecords(r.links, file, "iblinkinfo");
    if (r.links.adjacencies.empty())
      throw InputError(ShownPath(file), 0, 0, "", "no link in it (empty, or not iblinkinfo output): capture it again");
    observe_whole(r.links, file);
  }
  std::vector<LabelScan> labels;
  if (!in.labels.empty()) labels = LoadLabelAudit(in.labels);
  VerifyRun run;
  run.result = session.Finish(pipeline.reporting, labels);
  run.plan_devices = pipeline.plan->devices.size();
  run.plan_links = pipeline.plan->links.size();
  run.lldp_captures = pipeline.captures();
  run.reporting_devices = pipeline.reporting.size();
  run.label_scans = labels.size();
  return run;
}

}  // namespace railyard
