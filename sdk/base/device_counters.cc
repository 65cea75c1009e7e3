#include "sdk/base/device_counters.h"

#include <cstring>

namespace phal {
namespace {

// Copies `text` and its NUL to `*cursor`, advancing it; returns the copy.
const char* CopyString(std::string_view text, char** cursor) {
  char* copy = *cursor;
  if (!text.empty()) std::memcpy(copy, text.data(), text.size());
  copy[text.size()] = '\0';
  *cursor += text.size() + 1;
  return copy;
}

std::string_view Viewed(const char* text) {
  return text == nullptr ? std::string_view() : std::string_view(text);
}

}  // namespace

size_t CounterBlockSize(std::span<const CounterView> counters) {
  size_t bytes = counters.size() * sizeof(phal_device_counter_t);
  for (const CounterView& counter : counters) {
    bytes +=
        counter.name.size() + counter.kernel.size() + counter.unit.size() + 3;
  }
  return bytes;
}

phal_device_counter_t* WriteCounterBlock(std::span<const CounterView> counters,
                                         void* block) {
  auto* array = static_cast<phal_device_counter_t*>(block);
  char* cursor = reinterpret_cast<char*>(array + counters.size());
  for (size_t i = 0; i < counters.size(); ++i) {
    array[i].name = CopyString(counters[i].name, &cursor);
    array[i].kernel = CopyString(counters[i].kernel, &cursor);
    array[i].unit = CopyString(counters[i].unit, &cursor);
    array[i].value = counters[i].value;
  }
  return array;
}

std::vector<CounterView> ViewCounters(const phal_device_counter_t* counters,
                                      size_t count) {
  std::vector<CounterView> views;
  views.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    views.push_back({Viewed(counters[i].name), Viewed(counters[i].kernel),
                     Viewed(counters[i].unit), counters[i].value});
  }
  return views;
}

}  // namespace phal
