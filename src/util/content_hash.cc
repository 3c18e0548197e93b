#include "util/content_hash.h"

#include <cstdio>
#include <cstring>
#include <memory>

#include <fmt/format.h>

namespace railyard {
namespace {

// Four independent multiply-rotate lanes (the xxHash64 round), so a core keeps four
// multiplications in flight: several GB/s, faster than the file can be read from the page cache.
constexpr uint64_t kPrime1 = 0x9E3779B185EBCA87ull;
constexpr uint64_t kPrime2 = 0xC2B2AE3D27D4EB4Full;

uint64_t Rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

uint64_t Round(uint64_t acc, uint64_t input) {
  acc += input * kPrime2;
  acc = Rotl(acc, 31);
  return acc * kPrime1;
}

uint64_t Load64(const unsigned char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;  // little-endian hosts only matter here: the digest is compared on the machine family that wrote it
}

uint64_t Mix(uint64_t h) {
  h ^= h >> 33;
  h *= kPrime2;
  h ^= h >> 29;
  h *= kPrime1;
  h ^= h >> 32;
  return h;
}

}  // namespace

void ContentHash::Block(const unsigned char* p) {
  for (int i = 0; i < 4; ++i) lane_[i] = Round(lane_[i], Load64(p + 8 * i));
}

void ContentHash::Update(std::string_view bytes) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  size_t n = bytes.size();
  total_ += n;
  if (tail_size_ > 0) {
    size_t take = std::min(n, sizeof(tail_) - tail_size_);
    std::memcpy(tail_ + tail_size_, p, take);
    tail_size_ += take;
    p += take;
    n -= take;
    if (tail_size_ < sizeof(tail_)) return;
    Block(tail_);
    tail_size_ = 0;
  }
  for (; n >= 32; p += 32, n -= 32) Block(p);
  std::memcpy(tail_, p, n);
  tail_size_ = n;
}

uint64_t ContentHash::Digest() const {
  uint64_t h = Rotl(lane_[0], 1) + Rotl(lane_[1], 7) + Rotl(lane_[2], 12) + Rotl(lane_[3], 18);
  h ^= total_ * kPrime1;
  for (size_t i = 0; i < tail_size_; ++i) h = Rotl(h ^ (tail_[i] * kPrime2), 11) * kPrime1;
  return Mix(h);
}

bool HashFile(const std::string& path, uint64_t& digest, uint64_t& size) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) return false;
  ContentHash hash;
  std::unique_ptr<char[]> buffer(new char[1 << 20]);
  size_t got;
  while ((got = std::fread(buffer.get(), 1, 1 << 20, file.get())) > 0) hash.Update(std::string_view(buffer.get(), got));
  if (std::ferror(file.get())) return false;
  digest = hash.Digest();
  size = hash.size();
  return true;
}

std::string HexDigest(uint64_t digest) { return fmt::format("{:016x}", digest); }

}  // namespace railyard
