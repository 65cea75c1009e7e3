#include "sdk/plugin_support/build_identity.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>

#include <cstdint>
#include <cstdio>

namespace phal {
namespace {

struct Search {
  const void* inside;  // an address in this library
  std::string hex;
};

// The NT_GNU_BUILD_ID note among the notes at [notes, notes + size).
void ReadBuildId(const char* notes, size_t size, std::string* hex) {
  size_t offset = 0;
  while (offset + sizeof(ElfW(Nhdr)) <= size) {
    const auto* header = reinterpret_cast<const ElfW(Nhdr)*>(notes + offset);
    const size_t name_size = (header->n_namesz + 3) & ~size_t{3};
    const size_t description_size = (header->n_descsz + 3) & ~size_t{3};
    const char* name = notes + offset + sizeof(ElfW(Nhdr));
    const auto* description =
        reinterpret_cast<const unsigned char*>(name + name_size);
    if (header->n_type == NT_GNU_BUILD_ID && header->n_namesz == 4 &&
        std::string(name, 3) == "GNU") {
      for (uint32_t i = 0; i < header->n_descsz; ++i) {
        char digits[3];
        std::snprintf(digits, sizeof(digits), "%02x", description[i]);
        *hex += digits;
      }
      return;
    }
    offset += sizeof(ElfW(Nhdr)) + name_size + description_size;
  }
}

int VisitObject(dl_phdr_info* info, size_t, void* data) {
  auto* search = static_cast<Search*>(data);
  const auto address = reinterpret_cast<ElfW(Addr)>(search->inside);
  bool contains = false;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& segment = info->dlpi_phdr[i];
    const ElfW(Addr) start = info->dlpi_addr + segment.p_vaddr;
    if (segment.p_type == PT_LOAD && address >= start &&
        address < start + segment.p_memsz) {
      contains = true;
    }
  }
  if (!contains) return 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& segment = info->dlpi_phdr[i];
    if (segment.p_type != PT_NOTE) continue;
    ReadBuildId(
        reinterpret_cast<const char*>(info->dlpi_addr + segment.p_vaddr),
        segment.p_memsz, &search->hex);
  }
  return 1;  // found the library: stop
}

std::string ReadLibraryBuildId() {
  Search search{reinterpret_cast<const void*>(&ReadLibraryBuildId), ""};
  dl_iterate_phdr(VisitObject, &search);
  return search.hex;
}

}  // namespace

std::string BuildIdentity(std::string_view version) {
  static const std::string build_id = ReadLibraryBuildId();
  std::string identity(version);
  if (!build_id.empty()) identity += "+" + build_id;
  return identity;
}

}  // namespace phal
