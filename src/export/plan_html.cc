// plan.html: the plan as one self-contained page (docs/plan-report.md). The page itself is the
// embedded template data/report/plan.html; this writer fills its @TITLE@ and @DATA@ with the plan in
// compact JSON blocks: devices and strings (ports, speeds, media, part numbers) are numbered once and
// cables refer to them, so the 100,000-GPU plan's 400,000 cables stay a few tens of MB.
#include <string>
#include <unordered_map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "export/exporters.h"
#include "export/summary.h"
#include "util/csv.h"
#include "util/html.h"

namespace railyard {
namespace {

// JSON text safe inside <script>: "<" never appears raw, so "</script>" or "<!--" cannot end the block.
void Safe(std::string_view json, OutputFile& out) {
  size_t from = 0;
  for (size_t i = json.find('<'); i != std::string_view::npos; i = json.find('<', from)) {
    out.Append(json.substr(from, i - from));
    out.Append("\\u003c");
    from = i + 1;
  }
  out.Append(json.substr(from));
}

void Quote(std::string_view text, OutputFile& out) { Safe(JsonQuote(text), out); }

class Strings {
 public:
  uint32_t Of(std::string_view s) {
    auto it = index_.find(std::string(s));
    if (it != index_.end()) return it->second;
    index_.emplace(std::string(s), static_cast<uint32_t>(list_.size()));
    list_.emplace_back(s);
    return static_cast<uint32_t>(list_.size() - 1);
  }
  const std::vector<std::string>& list() const { return list_; }

 private:
  std::unordered_map<std::string, uint32_t> index_;
  std::vector<std::string> list_;
};

}  // namespace

void WritePlanHtml(const ExportContext& ctx, OutputFile& out) {
  const Fabric& f = ctx.fabric();
  const std::string_view page = EmbeddedFileText("plan.html");
  const size_t title = page.find("@TITLE@"), data = page.find("@DATA@");
  if (title == std::string_view::npos || data == std::string_view::npos || data < title) {
    throw std::logic_error("the embedded plan.html template lost its @TITLE@ or @DATA@ mark");
  }
  out.Append(page.substr(0, title));
  out.Append(fmt::format("{} — railyard plan", HtmlEscape(f.name)));
  out.Append(page.substr(title + 7, data - title - 7));

  out.Append("<script type=\"application/json\" id=\"rd-summary\">");
  Safe(PlanSummaryJson(ctx.result, ctx.catalog).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), out);
  out.Append("</script>\n<script type=\"application/json\" id=\"rd-findings\">");
  Safe(FindingsJson(ctx.result.findings).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), out);
  out.Append("</script>\n<script type=\"application/json\" id=\"rd-racks\">[");
  for (size_t r = 0; r < f.racks.size(); ++r) {
    const Rack& rack = f.racks[r];
    out.Append(r ? ",[" : "[");
    Quote(rack.name, out);
    out.Print(",{},{},{}]", rack.row, rack.position, rack.network ? 1 : 0);
  }
  out.Append("]</script>\n<script type=\"application/json\" id=\"rd-devices\">[");
  for (size_t d = 0; d < f.devices.size(); ++d) {
    const Device& dev = f.devices[d];
    out.Append(d ? ",[" : "[");
    Quote(dev.name, out);
    const char* role = dev.role == DeviceRole::kSwitch ? "s" : dev.role == DeviceRole::kAppliance ? "a" : "n";
    out.Print(",{},{},{},\"{}\",{}]", dev.rack, dev.u, dev.height_u, role, dev.plane);
  }
  out.Append("]</script>\n<script type=\"application/json\" id=\"rd-cables\">[");
  Strings strings;
  for (uint32_t i = 0; i < f.links.size(); ++i) {
    const Link& l = f.links[i];
    out.Append(i ? ",[\"" : "[\"");
    out.Print("{}", LabelParts(f, i));  // a prefix and a number: JSON-safe by construction
    // Interned one statement at a time: the order of a call's arguments is unspecified (gcc goes
    // right to left, clang left to right), and the string table's order must not depend on the compiler.
    const uint32_t a_port = strings.Of(ctx.ports(l.a));
    const uint32_t z_port = strings.Of(ctx.ports(l.z));
    const uint32_t speed = strings.Of(ctx.Speed(l.speed));
    const uint32_t media = strings.Of(ToString(l.media));
    const uint32_t opn =
        strings.Of(l.cable == kNoItem ? std::string_view() : std::string_view(ctx.catalog.cables()[l.cable].opn));
    out.Print("\",{},{},{},{},{},{},{},{},{},{:.1f}]", l.plane, l.level, l.a.device, a_port, l.z.device, z_port, speed, media,
              opn, l.length_m);
  }
  out.Append("]</script>\n<script type=\"application/json\" id=\"rd-strings\">[");
  for (size_t s = 0; s < strings.list().size(); ++s) {
    if (s) out.Append(",");
    Quote(strings.list()[s], out);
  }
  out.Append("]</script>\n<script type=\"application/json\" id=\"rd-bom\">[");
  bool first = true;
  for (const BomLine& line : ctx.result.bom.lines) {
    out.Append(first ? "[" : ",[");
    first = false;
    Quote(line.category, out);
    out.Append(",");
    Quote(line.opn, out);
    out.Append(",");
    Quote(line.description, out);
    out.Append(",");
    Quote(line.planes, out);
    out.Print(",{},{}]", line.quantity, line.spares);
  }
  out.Append("]</script>\n");
  out.Append(page.substr(data + 6));
}

}  // namespace railyard
