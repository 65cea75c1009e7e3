// Many threads on one client of the cpu plugin at once: compiling distinct
// and identical programs, executing them, and handing streams' events from
// one thread to another. Run under ThreadSanitizer by `scripts/test.sh
// --tsan` (docs/reliability.md, "Sanitizers").
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "core/loader/testing/manifests.h"
#include "core/testing/temp_dir.h"
#include "polyhal/polyhal.hpp"

namespace phal {
namespace {

constexpr int kThreads = 6;

// f32[n] -> f32[n]: x * scale + offset, then exp of its negation summed
// into one value as a second result, so each program has a loop and a
// reduction kernel.
std::string ScaleProgram(int scale, int offset, int n) {
  std::string shape = "f32[" + std::to_string(n) + "]";
  return "HloModule scale_" + std::to_string(scale) + "_" +
         std::to_string(offset) +
         "\n\nadd {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
         "  ROOT s = f32[] add(a, b)\n}\n\nENTRY main {\n  x = " +
         shape + " parameter(0)\n  k = f32[] constant(" +
         std::to_string(scale) + ")\n  kb = " + shape +
         " broadcast(k), dimensions={}\n  c = f32[] constant(" +
         std::to_string(offset) + ")\n  cb = " + shape +
         " broadcast(c), dimensions={}\n  m = " + shape +
         " multiply(x, kb)\n  y = " + shape +
         " add(m, cb)\n  zero = f32[] constant(0)\n  total = f32[] "
         "reduce(y, zero), dimensions={0}, to_apply=add\n  ROOT t = (" +
         shape + ", f32[]) tuple(y, total)\n}\n";
}

class ConcurrencyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_.Write("cpu.json", testing::CpuManifest());
    phal_client_options_t options{};
    options.struct_size = sizeof(options);
    std::string path = dir_.path();
    options.plugin_path = path.c_str();
    auto client = Client::Create(&options);
    ASSERT_TRUE(client.ok()) << client.error().ToString();
    client_ = std::move(client.value());
    ASSERT_EQ(client_.Devices().size(), 1u);
    device_ = client_.Devices()[0];
  }

  // Compiles ScaleProgram(scale, offset, n), runs it on 0..n-1 and checks
  // both results; returns the failure, empty when it passed.
  std::string CompileAndCheck(int scale, int offset, int n) {
    auto executable =
        Executable::Compile(device_, ScaleProgram(scale, offset, n));
    if (!executable.ok()) return executable.error().ToString();
    std::vector<float> in(n);
    for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i % 64);
    auto argument = Buffer::Allocate(device_, PHAL_ELEMENT_TYPE_F32, {n});
    if (!argument.ok()) return argument.error().ToString();
    if (Error error = argument->CopyFromHost(in.data(), n * 4); !error.ok()) {
      return error.ToString();
    }
    std::vector<Buffer> arguments;
    arguments.push_back(std::move(argument.value()));
    for (int run = 0; run < 3; ++run) {
      auto results = executable->Execute(arguments);
      if (!results.ok()) return results.error().ToString();
      if (results->size() != 2) return "two results expected";
      std::vector<float> out(n);
      float total = 0;
      if (!(*results)[0].CopyToHost(out.data(), n * 4).ok() ||
          !(*results)[1].CopyToHost(&total, 4).ok()) {
        return "copy to host failed";
      }
      double expected_total = 0;
      for (int i = 0; i < n; ++i) {
        float expected = in[i] * scale + offset;
        if (out[i] != expected) {
          return "element " + std::to_string(i) + " of scale " +
                 std::to_string(scale) + ": " + std::to_string(out[i]) +
                 " != " + std::to_string(expected);
        }
        expected_total += expected;
      }
      if (std::abs(total - expected_total) > 1e-4 * std::abs(expected_total)) {
        return "total " + std::to_string(total) +
               " != " + std::to_string(expected_total);
      }
    }
    return "";
  }

  testing::TempDir dir_;
  Client client_;
  Device device_;
};

// Each thread compiles programs no other thread compiles, and all threads
// compile one shared program, so compiles race both on distinct work and
// on the kernel cache's entries for the same kernels.
TEST_F(ConcurrencyTest, ThreadsCompileAndExecuteDistinctAndSharedPrograms) {
  std::mutex mutex;
  std::vector<std::string> failures;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 3; ++i) {
        // 20000 elements: above the inline limit, so the stream's worker
        // runs the kernels; 300: inline on the calling thread.
        int n = (i % 2 == 0) ? 20000 : 300;
        std::string distinct = CompileAndCheck(2 + t, 10 * i + 1, n);
        std::string shared = CompileAndCheck(7, 3, n);
        std::lock_guard<std::mutex> lock(mutex);
        if (!distinct.empty()) failures.push_back(distinct);
        if (!shared.empty()) failures.push_back(shared);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (const std::string& failure : failures) ADD_FAILURE() << failure;
}

// A producer thread fills a buffer on its stream and records an event; a
// consumer thread makes its own stream wait for that event, reads the
// buffer back and synchronizes. Each round uses a fresh event, handed over
// under a mutex before the copy has run; a third thread only queries and
// synchronizes the events.
TEST_F(ConcurrencyTest, EventsRecordedOnOneThreadOrderStreamsOfAnother) {
  constexpr int kRounds = 60;
  constexpr int64_t kCount = 1 << 15;
  auto buffer = Buffer::Allocate(device_, PHAL_ELEMENT_TYPE_S32, {kCount});
  ASSERT_TRUE(buffer.ok()) << buffer.error().ToString();

  std::mutex mutex;
  std::condition_variable changed;
  std::vector<std::optional<Event>> events(kRounds);
  std::vector<bool> recorded(kRounds, false), consumed(kRounds, false);
  std::atomic<int> failures{0};

  std::thread producer([&] {
    auto stream = Stream::Create(device_);
    if (!stream.ok()) {
      ++failures;
      return;
    }
    // One host array per round: a copy may still be reading an earlier
    // round's data when the next is queued.
    std::vector<std::vector<int32_t>> data(kRounds,
                                           std::vector<int32_t>(kCount));
    for (int round = 0; round < kRounds; ++round) {
      {
        // The device buffer is reused: wait until the consumer's stream
        // has read the previous round back.
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return round == 0 || consumed[round - 1]; });
      }
      for (int64_t i = 0; i < kCount; ++i) data[round][i] = round * 100000 + i;
      auto event = Event::Create(device_);
      if (!event.ok() ||
          !stream->CopyFromHost(data[round].data(), *buffer, kCount * 4).ok() ||
          !stream->Record(*event).ok()) {
        ++failures;
        return;
      }
      std::lock_guard<std::mutex> lock(mutex);
      events[round] = std::move(event.value());
      recorded[round] = true;
      changed.notify_all();
    }
    if (!stream->Synchronize().ok()) ++failures;
  });

  std::thread consumer([&] {
    auto stream = Stream::Create(device_);
    if (!stream.ok()) {
      ++failures;
      return;
    }
    std::vector<int32_t> out(kCount);
    for (int round = 0; round < kRounds; ++round) {
      Event* event = nullptr;
      {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return recorded[round]; });
        event = &*events[round];
      }
      if (!stream->Wait(*event).ok() ||
          !stream->CopyToHost(*buffer, out.data(), kCount * 4).ok() ||
          !stream->Synchronize().ok()) {
        ++failures;
      }
      for (int64_t i = 0; i < kCount; i += 997) {
        if (out[i] != round * 100000 + i) {
          ++failures;
          break;
        }
      }
      std::lock_guard<std::mutex> lock(mutex);
      consumed[round] = true;
      changed.notify_all();
    }
  });

  std::thread watcher([&] {
    for (int round = 0; round < kRounds; ++round) {
      Event* event = nullptr;
      {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return recorded[round]; });
        event = &*events[round];
      }
      auto signalled = event->IsSignalled();
      if (!signalled.ok() || !event->Synchronize().ok()) ++failures;
    }
  });

  producer.join();
  consumer.join();
  watcher.join();
  EXPECT_EQ(failures.load(), 0);
}

}  // namespace
}  // namespace phal
