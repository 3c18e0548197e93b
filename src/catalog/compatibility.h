// A compatibility matrix: which NIC a server model supports, from which BIOS, on which OS, kernel, driver
// stack and firmware. The server vendor's or NVIDIA's support list, written down by the user as CSV
// (docs/advise.md#compatibility-matrix); railyard checks it in `plan` (the spec's server and NICs), `accept`
// (each received card against the servers it goes into) and `doctor` (a running host: server-nic-unsupported).
//
// Columns (header required, any order; only server and nic are required):
//   server      the model as the server reports it ("PowerEdge XE9680", "ThinkSystem SR675 V3"); * = any
//   nic         an OPN (MCX75310AAS-NEAT; flint's MCX75310AAS-NEA_Ax matches it) or a family (ConnectX-7)
//   bios_min    the lowest BIOS version supported with that card
//   os          "ubuntu 22.04;rhel 9": ID and VERSION_ID prefix from os-release; empty = any
//   kernel      "5.15.0-*;6.8.*": uname -r globs; empty = any
//   stack       inbox | mlnx_ofed | doca_ofed; empty = any
//   stack_min, stack_max   the OFED train range ("24.04", "24.10"), as ofed_info -s prints it
//   fw_min, fw_max         the NIC firmware range
//   status      supported (default) | unsupported: the vendor says this pair does not work
//   note, source           free text, printed with findings
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace railyard {

struct CompatEntry {
  std::string server;
  std::string nic;
  bool nic_is_family = false;
  std::string bios_min;
  std::vector<std::string> os;
  std::vector<std::string> kernels;
  std::string stack;
  std::string stack_min, stack_max;
  std::string fw_min, fw_max;
  bool supported = true;
  std::string note, source;
  int line = 0;
};

struct CompatMatrix {
  std::string file;
  std::vector<CompatEntry> entries;
  bool empty() const { return entries.empty(); }
};

// Throws InputError("FILE:LINE: column C (name): message") on a bad row or header.
CompatMatrix ParseCompatMatrix(std::string_view text, const std::string& file);
CompatMatrix LoadCompatMatrix(const std::string& path);

// The driver stack ofed_info -s names: {"mlnx_ofed", "24.10"} for "MLNX_OFED_LINUX-24.10-3.2.5.0",
// {"doca_ofed", "24.07"} for "OFED-internal-24.07-0.3.5.0"; {"inbox", ""} for an empty string.
struct DriverStack {
  std::string stack;
  std::string train;
};
DriverStack DriverStackOf(std::string_view ofed_info);
// "doca_ofed 24.10", "mlnx_ofed", "inbox" (a spec's nodes.driver_stack); nullopt when the stack is not one of those.
std::optional<DriverStack> ParseDriverStack(std::string_view text);

// The public support limit a family's driver stack crosses (data/catalog/driver_stacks.csv, sourced): nullopt when
// the family runs on that stack (or nothing is known).
struct DriverStackLimit {
  std::string family, stack, last, why, source, confidence;
};
std::optional<DriverStackLimit> UnsupportedStack(std::string_view family, const DriverStack& stack);

// Does a card's part number name this OPN? Case-insensitive; flint's "MCX75310AAS-NEA_Ax" and VPD's
// "MCX75310AAS-NEAT" are the same part.
bool SameOpn(std::string_view part_number, std::string_view opn);

// What is known of one card in one server. Empty fields were not known and are not checked (and said so).
struct CompatQuery {
  std::function<bool(std::string_view)> is_server;  // does a matrix `server` name this machine?
  std::string server_name;                          // for messages
  std::string opn;                                  // the card's part number
  std::string family;                               // ConnectX-7
  std::string bios;
  std::function<bool(std::string_view)> os_matches;  // an `os` entry ("ubuntu 22.04"); empty = OS unknown
  std::string os_name;
  std::string kernel;
  DriverStack stack;  // stack "" = unknown
  std::string firmware;
};

struct CompatVerdict {
  enum class Kind {
    kServerNotListed,  // the matrix says nothing about this server: nothing was checked
    kNicNotListed,     // the server is listed, this card with it is not
    kUnsupported,      // a row says this pair does not work
    kOutOfRange,       // a row lists the pair, but BIOS/OS/kernel/stack/firmware is outside every such row
    kSupported,
  } kind = Kind::kServerNotListed;
  const CompatEntry* row = nullptr;      // the row that decided (kSupported/kUnsupported) or came nearest (kOutOfRange)
  std::vector<std::string> mismatches;   // "BIOS 1.2.0 below 1.5.4", each for `row`
  std::vector<std::string> unchecked;    // "kernel", "firmware": facts the query lacked
  std::vector<std::string> listed_nics;  // kNicNotListed: what the matrix does list for this server
};

CompatVerdict CheckCompat(const CompatMatrix& matrix, const CompatQuery& query);

}  // namespace railyard
