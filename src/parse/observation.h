// What a tool reported about one cable, from one side: the local port and the neighbour it sees.
// Parsers of LLDP tables, lldpctl JSON and ibnetdiscover all produce these; the cabling verifier
// matches them against the plan.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace railyard {

// What a report can see: LLDP runs on Ethernet ports only, ibnetdiscover and iblinkinfo on InfiniBand
// ones. The verifier judges each planned link only by the reports that could have seen it.
enum class Medium : uint8_t { kAny = 0, kEthernet = 1, kInfiniband = 2 };

struct Adjacency {
  std::string local_device;  // as the source names it: hostname, LLDP system name, IB node description
  std::string local_port;    // "swp3", "Ethernet8", "mlx5_2", "17" (IB port number)
  std::string remote_device;
  std::string remote_port;
  std::string local_guid;  // InfiniBand node GUIDs, when known ("0x..."), or LLDP chassis id
  std::string remote_guid;
  int width = 0;                 // IB link width (1, 2, 4, 8, 12); 0 = not reported
  uint32_t speed_gbps = 0;       // per-link rate when reported (4xNDR = 400); 0 = not reported
  uint32_t could_be_gbps = 0;    // iblinkinfo's "Could be": the rate both ends support, when faster
  int pvid = -1;                 // LLDP: the port VLAN id the neighbour announces (802.1 TLV with pvid), -1 none
  Medium medium = Medium::kAny;  // set by each parser
  // The file it came from, shared by every record of that file (a switch reports 64 ports;
  // 600,000 copies of a path would cost more than parsing them).
  std::shared_ptr<const std::string> source;
  int line = 0;  // line in that file (0 when the format has none, e.g. JSON)

  const std::string& file() const {
    static const std::string kNone;
    return source ? *source : kNone;
  }
};

struct ParseWarning {
  int line = 0;
  std::string message;
};

// What a parser of a list-shaped output returns: the rows it read and a warning, with its line, for
// what it could not read. Returned, never an out-parameter, so that no caller can drop the warnings
// by passing nothing for them.
template <class Row>
struct Parsed {
  std::vector<Row> rows;
  std::vector<ParseWarning> warnings;
};

// Lines a parser met and could not place, counted, so that one warning says how many and which
// came first: noise (prompts, banners of other tools) must not flood the warnings, nor pass unsaid.
class UnreadLines {
 public:
  void Note(int line, std::string_view text) {
    if (count_++ == 0) {
      first_line_ = line;
      first_text_ = std::string(text.substr(0, 80));
    }
  }
  // Adds "N line(s) that are not WHAT (the first: '...')" at the first one's line, if there were any.
  void Warn(std::vector<ParseWarning>& out, std::string_view what) const {
    if (count_ == 0) return;
    out.push_back({first_line_, std::to_string(count_) + " line(s) that are not " + std::string(what) + " (the first: '" +
                                    first_text_ + "')"});
  }

 private:
  int count_ = 0, first_line_ = 0;
  std::string first_text_;
};

struct AdjacencyReport {
  std::vector<Adjacency> adjacencies;
  std::vector<ParseWarning> warnings;
};

}  // namespace railyard
