#include "parse/vpd.h"

#include <cctype>
#include <map>

#include <fmt/format.h>

namespace railyard {
namespace {

std::string Trimmed(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\0')) s.remove_suffix(1);
  return std::string(s);
}

}  // namespace

BinaryVpd ParseBinaryVpd(std::string_view b) {
  BinaryVpd v;
  auto byte = [&](size_t i) { return static_cast<uint8_t>(b[i]); };
  size_t pos = 0;
  while (pos < b.size()) {
    uint8_t tag = byte(pos);
    if (tag == 0x78) {  // small resource: end tag
      v.has_end = true;
      break;
    }
    if ((tag & 0x80) == 0) {
      v.warnings.push_back({static_cast<int>(pos), fmt::format("unexpected small resource tag 0x{:02x}", tag)});
      break;
    }
    if (pos + 3 > b.size()) {
      v.warnings.push_back({static_cast<int>(pos), "truncated resource header"});
      break;
    }
    size_t length = byte(pos + 1) | (static_cast<size_t>(byte(pos + 2)) << 8);
    size_t data = pos + 3;
    if (data + length > b.size()) {
      v.warnings.push_back({static_cast<int>(pos), fmt::format("resource 0x{:02x} of {} bytes runs past the end", tag, length)});
      break;
    }
    if (tag == 0x82) {
      v.product_name = Trimmed(b.substr(data, length));
    } else if (tag == 0x90 || tag == 0x91) {
      auto& fields = tag == 0x90 ? v.read_only : v.read_write;
      size_t f = data;
      while (f + 3 <= data + length) {
        std::string keyword(b.substr(f, 2));
        size_t flen = byte(f + 2);
        if (f + 3 + flen > data + length) {
          v.warnings.push_back({static_cast<int>(f), fmt::format("field {} runs past its resource", keyword)});
          break;
        }
        if (tag == 0x90 && keyword == "RV") {
          v.has_rv = true;
          // The checksum is the first byte of RV: all bytes up to and including it sum to zero.
          uint8_t sum = 0;
          for (size_t i = 0; i <= f + 3 && i < b.size(); ++i) sum = static_cast<uint8_t>(sum + byte(i));
          v.checksum_sum = sum;
          v.checksum_ok = flen >= 1 && sum == 0;
        } else if (tag == 0x91 && keyword == "RW") {
          // read-write free space: nothing to keep
        } else {
          fields[keyword] = Trimmed(b.substr(f + 3, flen));
        }
        f += 3 + flen;
      }
    } else {
      v.warnings.push_back({static_cast<int>(pos), fmt::format("unknown large resource tag 0x{:02x}", tag)});
    }
    pos = data + length;
  }
  if (!v.has_rv) v.warnings.push_back({0, "no RV field: the read-only section has no checksum"});
  return v;
}

BinaryVpd ParseMstvpd(std::string_view text) {
  BinaryVpd v;
  int number = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    std::string_view line = text.substr(pos, eol == std::string_view::npos ? std::string_view::npos : eol - pos);
    pos = eol == std::string_view::npos ? text.size() : eol + 1;
    ++number;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    if (line.empty()) continue;
    size_t colon = line.find(':');
    std::string_view key = colon == std::string_view::npos ? std::string_view() : line.substr(0, colon);
    bool keyword =
        key.size() == 2 && std::isalnum(static_cast<unsigned char>(key[0])) && std::isalnum(static_cast<unsigned char>(key[1]));
    if (!keyword) {
      v.warnings.push_back({number, "not a `KEY: value` line of mstvpd"});
      continue;
    }
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
    if (key == "ID")
      v.product_name = std::string(value);
    else
      v.read_only[std::string(key)] = std::string(value);
  }
  if (v.product_name.empty() && v.read_only.empty() && v.warnings.empty()) v.warnings.push_back({1, "empty: no VPD keyword"});
  return v;
}

VpdIdentity IdentityOf(const std::map<std::string, std::string>& ro) {
  auto get = [&](const char* k) {
    auto it = ro.find(k);
    std::string s = it == ro.end() ? "" : it->second;
    while (!s.empty() && (s.back() == ' ' || s.back() == '\0')) s.pop_back();
    return s;
  };
  VpdIdentity id;
  id.part = get("PN");
  const std::string va = get("VA");
  std::string map = va.substr(0, va.find(':'));
  static const std::map<std::string, std::string> kOems = {
      {"LNV", "Lenovo"},     {"HP", "HPE"},  {"HPE", "HPE"},    {"DELL", "Dell"},  {"DEL", "Dell"},     {"SM", "Supermicro"},
      {"SMC", "Supermicro"}, {"IBM", "IBM"}, {"CSCO", "Cisco"}, {"HUA", "Huawei"}, {"INSPUR", "Inspur"}};
  if (va.find(':') != std::string::npos && map != "MLX" && !map.empty()) {
    auto o = kOems.find(map);
    id.oem = o == kOems.end() ? map : o->second;
  }
  if (size_t m = va.find("MODL="); m != std::string::npos) {
    std::string modl = va.substr(m + 5, va.find(':', m) == std::string::npos ? std::string::npos : va.find(':', m) - m - 5);
    while (!modl.empty() && modl.back() == ' ') modl.pop_back();
    // NVIDIA's own cards put the PN's core here ("CX75310AA"); OEM cards the whole model, sometimes without its M.
    if (modl.find('-') != std::string::npos) id.model = modl.starts_with("CX") || modl.starts_with("BF") ? "M" + modl : modl;
  }
  return id;
}

}  // namespace railyard
