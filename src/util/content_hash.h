// A fast 64-bit fingerprint of a byte stream, fed in pieces of any size: the same bytes give the
// same digest however they were split. It tells whether a file is the one an index was written
// from (plan.json and plan.index); it is not a cryptographic hash and guards against accidents
// (an edited or replaced plan.json), not against someone who rewrites both files on purpose.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace railyard {

class ContentHash {
 public:
  void Update(std::string_view bytes);
  uint64_t Digest() const;
  uint64_t size() const { return total_; }

 private:
  void Block(const unsigned char* p);  // 32 bytes
  uint64_t lane_[4] = {0x9E3779B97F4A7C15ull, 0xC2B2AE3D27D4EB4Full, 0x165667B19E3779F9ull, 0x85EBCA77C2B2AE63ull};
  unsigned char tail_[32] = {};
  size_t tail_size_ = 0;
  uint64_t total_ = 0;
};

// The digest of a file read in 1 MiB pieces (no copy of the whole file is kept). Returns false
// when it cannot be read.
bool HashFile(const std::string& path, uint64_t& digest, uint64_t& size);

std::string HexDigest(uint64_t digest);

}  // namespace railyard
