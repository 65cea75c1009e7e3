// The one non-cryptographic hash of the tree: 64-bit FNV-1a, for cache keys
// (kernel fingerprints, program binaries), stable seeds and identities that
// must agree between runs and builds. It is not collision-resistant against
// an adversary; never use it where an attacker chooses the input.
//
// Every function is pure and thread-safe.
#ifndef POLYHAL_SDK_BASE_HASH_H_
#define POLYHAL_SDK_BASE_HASH_H_

#include <cstdint>
#include <string_view>

namespace phal {

// FNV-1a's offset basis: the hash of no bytes.
inline constexpr uint64_t kFnv1aSeed = 0xcbf29ce484222325ull;

// FNV-1a over `bytes`, continuing from `seed`: hashing "ab" equals hashing
// "b" from the hash of "a". Chain calls to hash several fields.
constexpr uint64_t Fnv1a(std::string_view bytes, uint64_t seed = kFnv1aSeed) {
  uint64_t hash = seed;
  for (const char byte : bytes) {
    hash ^= static_cast<unsigned char>(byte);
    hash *= 0x100000001b3ull;
  }
  return hash;
}

// splitmix64's finaliser: spreads every input bit over the whole word, for
// uses that read FNV-1a's weakly mixed high bits (UUIDs, bucket indices).
constexpr uint64_t MixBits(uint64_t value) {
  value = (value ^ (value >> 30)) * 0xbf58476d1ce4e5b9ull;
  value = (value ^ (value >> 27)) * 0x94d049bb133111ebull;
  return value ^ (value >> 31);
}

}  // namespace phal

#endif  // POLYHAL_SDK_BASE_HASH_H_
