// polyhal/transport.h and its C++ face transport.hpp: two clients of one
// job over the TCP transport (two threads here, as two processes would)
// number the job's devices alike; an application's transport that chains
// reductions of its own (phal_host_reductions_t) gets a group made when
// the program is compiled and runs its all-reduce; bad options get an
// error naming the member at fault; JobTransport::Initialize reads the
// environment.
#include "polyhal/transport.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/testing/free_port.h"

#include "polyhal/polyhal.hpp"
#include "polyhal/transport.hpp"

namespace phal {
namespace {

using ::testing::HasSubstr;

std::string MessageOf(phal_status_t* status) {
  std::string message = phal_status_get_message(status);
  phal_status_free(status);
  return message;
}

TEST(TcpTransport, TheClientsOfTwoProcessesNumberTheDevicesAlike) {
  const std::string coordinator =
      "127.0.0.1:" + std::to_string(testing::FreePort());
  std::vector<std::vector<std::string>> tables(2);
  std::vector<std::string> failures(2);
  std::vector<std::pair<uint32_t, uint32_t>> places(2);
  std::vector<std::size_t> local(2);
  std::vector<std::thread> threads;
  for (uint32_t r = 0; r < 2; ++r) {
    threads.emplace_back([&, r] {
      phal_tcp_job_options_t options{};
      options.struct_size = sizeof(options);
      options.coordinator = coordinator.c_str();
      options.process_index = r;
      options.process_count = 2;
      options.timeout_ms = 30000;
      phal_host_transport_t* transport = nullptr;
      if (phal_status_t* status =
              phal_tcp_transport_create(&options, &transport)) {
        failures[r] = MessageOf(status);
        return;
      }
      {
        phal_client_options_t client_options{};
        client_options.struct_size = sizeof(client_options);
        client_options.transport = transport;
        Result<Client> client = Client::Create(&client_options);
        if (!client.error().ok()) {
          failures[r] = client.error().message();
        } else {
          places[r] = client->ProcessIndex();
          local[r] = client->Devices().size();
          for (const phal_global_device_t& device : client->GlobalDevices()) {
            tables[r].push_back(std::to_string(device.process_index) + ":" +
                                device.plugin_name + ":" + device.device_name);
          }
        }
      }
      phal_tcp_transport_destroy(transport);
    });
  }
  for (std::thread& thread : threads) thread.join();
  ASSERT_EQ(failures[0], "");
  ASSERT_EQ(failures[1], "");
  EXPECT_EQ(places[0], (std::pair<uint32_t, uint32_t>{0, 2}));
  EXPECT_EQ(places[1], (std::pair<uint32_t, uint32_t>{1, 2}));
  EXPECT_EQ(tables[0], tables[1]);
  ASSERT_EQ(tables[0].size(), local[0] + local[1]);
  EXPECT_EQ(tables[0].front().substr(0, 2), "0:");
  EXPECT_EQ(tables[0].back().substr(0, 2), "1:");
}

// Reductions of two ranks that are threads of this process: f32 sums, the
// ranks' values added in rank order.
struct TwoRankSums {
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<float> values[2];
  std::vector<float> result;
  int arrived = 0;
  int taken = 0;
  bool reduced = false;
  std::atomic<int> groups{0};
  std::atomic<int> reductions{0};
  std::vector<int32_t> group_ranks;
};

struct RankReductions {
  TwoRankSums* sums = nullptr;
  int rank = 0;
  phal_host_reductions_t c{};
};

phal_status_code_t SumOfTwo(void* user_data, uint64_t, void* data, size_t count,
                            uint32_t, uint32_t, int64_t timeout_ms, const char*,
                            char* error, size_t error_capacity) {
  auto* mine = static_cast<RankReductions*>(user_data);
  TwoRankSums& sums = *mine->sums;
  const auto timeout = std::chrono::milliseconds(timeout_ms);
  std::unique_lock<std::mutex> lock(sums.mutex);
  if (!sums.changed.wait_for(lock, timeout, [&] { return !sums.reduced; })) {
    std::snprintf(error, error_capacity, "the previous round never ended");
    return PHAL_DEADLINE_EXCEEDED;
  }
  const auto* floats = static_cast<const float*>(data);
  sums.values[mine->rank].assign(floats, floats + count);
  if (++sums.arrived == 2) {
    sums.result = sums.values[0];
    for (size_t i = 0; i < count; ++i) sums.result[i] += sums.values[1][i];
    sums.reduced = true;
    sums.reductions.fetch_add(1);
    sums.changed.notify_all();
  }
  if (!sums.changed.wait_for(lock, timeout, [&] { return sums.reduced; })) {
    std::snprintf(error, error_capacity, "the other rank never came");
    return PHAL_DEADLINE_EXCEEDED;
  }
  std::memcpy(data, sums.result.data(), count * sizeof(float));
  if (++sums.taken == 2) {
    sums.arrived = sums.taken = 0;
    sums.reduced = false;
    sums.changed.notify_all();
  }
  return PHAL_OK;
}

// An all-reduce of two replicas, and how each of two processes runs it.
constexpr char kTwoReplicaSum[] = R"(HloModule sum, replica_count=2
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  x = f32[4] parameter(0)
  ROOT r = f32[4] all-reduce(x), replica_groups={}, to_apply=add
}
)";

// Each of the two processes' first device of `plugin` in the job's table.
std::vector<size_t> FirstDeviceOfEachProcess(
    const std::vector<phal_global_device_t>& table, const std::string& plugin) {
  std::vector<size_t> assignment;
  for (uint32_t p = 0; p < 2; ++p) {
    for (size_t g = 0; g < table.size(); ++g) {
      if (table[g].process_index == p &&
          std::string(table[g].plugin_name) == plugin) {
        assignment.push_back(g);
        break;
      }
    }
  }
  return assignment;
}

// Process `rank`'s part of kTwoReplicaSum on `device`, its argument
// {rank + 1, 2, 3, 4}: the result in *result, or the error's text.
std::string RunSum(Executable& executable, Device device, int rank,
                   std::vector<float>* result) {
  const std::vector<float> x = {1.0f * static_cast<float>(rank + 1), 2.0f, 3.0f,
                                4.0f};
  Result<Buffer> input = Buffer::Allocate(device, PHAL_ELEMENT_TYPE_F32, {4});
  input->CopyFromHost(x.data(), x.size() * sizeof(float));
  std::vector<std::vector<Buffer>> inputs(1);
  inputs[0].push_back(std::move(input.value()));
  Result<std::vector<std::vector<Buffer>>> outputs =
      executable.ExecuteOnDevices(inputs);
  if (!outputs.ok()) return outputs.error().ToString();
  result->resize(4);
  (*outputs)[0][0].CopyToHost(result->data(), 4 * sizeof(float));
  return "";
}

TEST(HostReductions, AnApplicationsTransportRunsTheProgramsAllReduce) {
  const std::string coordinator =
      "127.0.0.1:" + std::to_string(testing::FreePort());
  TwoRankSums sums;
  std::vector<std::string> failures(2);
  std::vector<std::vector<float>> results(2);
  std::vector<std::thread> threads;
  for (int r = 0; r < 2; ++r) {
    threads.emplace_back([&, r] {
      phal_tcp_job_options_t options{};
      options.struct_size = sizeof(options);
      options.coordinator = coordinator.c_str();
      options.process_index = static_cast<uint32_t>(r);
      options.process_count = 2;
      options.timeout_ms = 30000;
      phal_host_transport_t* tcp = nullptr;
      if (phal_status_t* status = phal_tcp_transport_create(&options, &tcp)) {
        failures[r] = MessageOf(status);
        return;
      }
      RankReductions mine;
      mine.sums = &sums;
      mine.rank = r;
      mine.c.struct_size = sizeof(mine.c);
      mine.c.type = PHAL_EXTENSION_TYPE_HOST_REDUCTIONS;
      mine.c.user_data = &mine;
      mine.c.supports = [](void*, uint32_t type, uint32_t reduction,
                           uint32_t) -> int32_t {
        return type == PHAL_ELEMENT_TYPE_F32 && reduction == PHAL_REDUCTION_SUM;
      };
      mine.c.group_create = [](void* user_data, const int32_t* ranks,
                               size_t count, int64_t, uint64_t* out_group,
                               char*, size_t) -> phal_status_code_t {
        auto* self = static_cast<RankReductions*>(user_data);
        self->sums->groups.fetch_add(1);
        std::lock_guard<std::mutex> lock(self->sums->mutex);
        self->sums->group_ranks.assign(ranks, ranks + count);
        *out_group = 7;
        return PHAL_OK;
      };
      mine.c.all_reduce = SumOfTwo;
      phal_host_transport_t transport = *tcp;
      transport.next = &mine.c;
      {
        phal_client_options_t client_options{};
        client_options.struct_size = sizeof(client_options);
        client_options.transport = &transport;
        Result<Client> client = Client::Create(&client_options);
        const std::vector<phal_global_device_t> table =
            client.ok() ? client->GlobalDevices()
                        : std::vector<phal_global_device_t>{};
        // Each process's first device of process 0's first plugin.
        const std::vector<size_t> assignment =
            table.empty()
                ? std::vector<size_t>{}
                : FirstDeviceOfEachProcess(table, table[0].plugin_name);
        Result<Executable> executable =
            assignment.size() == 2
                ? Executable::CompileGlobal(client->get(), assignment,
                                            kTwoReplicaSum)
                : Result<Executable>(Error(PHAL_NOT_FOUND, "no devices"));
        if (!executable.ok()) {
          failures[r] = executable.error().ToString();
        } else {
          failures[r] =
              RunSum(*executable,
                     Device(table[assignment[static_cast<size_t>(r)]].device),
                     r, &results[r]);
        }
      }
      phal_tcp_transport_destroy(tcp);
    });
  }
  for (std::thread& thread : threads) thread.join();
  ASSERT_EQ(failures[0], "");
  ASSERT_EQ(failures[1], "");
  EXPECT_EQ(sums.groups.load(), 2) << "one group_create per process";
  EXPECT_EQ(sums.group_ranks, (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(sums.reductions.load(), 1) << "the all-reduce ran on all_reduce";
  for (int r = 0; r < 2; ++r) {
    EXPECT_EQ(results[r], (std::vector<float>{3.0f, 4.0f, 6.0f, 8.0f}));
  }
}

// Two processes (threads here) of one emulated nvidia device each: the
// all-reduce runs on an NCCL communicator the plugin joins over them (ABI
// 1.12). With both executing it sums; when process 1 compiles but never
// executes, process 0's meeting before the collective names it within
// PHAL_COLLECTIVE_TIMEOUT instead of waiting in NCCL.
void RunJoinedAllReduce(bool second_executes,
                        std::vector<std::string>* failures,
                        std::vector<std::vector<float>>* results) {
  const std::string coordinator =
      "127.0.0.1:" + std::to_string(testing::FreePort());
  std::atomic<bool> first_done{false};
  std::vector<std::thread> threads;
  for (int r = 0; r < 2; ++r) {
    threads.emplace_back([&, r] {
      const auto run = [&]() -> std::string {
        Result<JobTransport> job = JobTransport::Tcp(
            coordinator, static_cast<uint32_t>(r), 2, std::chrono::seconds(30));
        if (!job.ok()) return job.error().ToString();
        phal_client_options_t client_options{};
        client_options.struct_size = sizeof(client_options);
        client_options.transport = job->get();
        Result<Client> client = Client::Create(&client_options);
        if (!client.ok()) return client.error().ToString();
        const std::vector<phal_global_device_t> table = client->GlobalDevices();
        const std::vector<size_t> assignment =
            FirstDeviceOfEachProcess(table, "nvidia");
        if (assignment.size() != 2) {
          return "no emulated nvidia device in each process";
        }
        Result<Executable> executable = Executable::CompileGlobal(
            client->get(), assignment, kTwoReplicaSum);
        if (!executable.ok()) return executable.error().ToString();
        if (r == 1 && !second_executes) {
          while (!first_done.load()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
          }
          return "";
        }
        return RunSum(*executable,
                      Device(table[assignment[static_cast<size_t>(r)]].device),
                      r, &(*results)[static_cast<size_t>(r)]);
      };
      (*failures)[static_cast<size_t>(r)] = run();
      if (r == 0) first_done.store(true);
    });
  }
  for (std::thread& thread : threads) thread.join();
}

TEST(JoinedCommunicators, TwoProcessesSumOnACommunicatorJoinedOverThem) {
  ASSERT_EQ(setenv("PHAL_GPU_EMULATION", "1", 1), 0);
  std::vector<std::string> failures(2);
  std::vector<std::vector<float>> results(2);
  RunJoinedAllReduce(true, &failures, &results);
  ASSERT_EQ(failures[0], "");
  ASSERT_EQ(failures[1], "");
  for (int r = 0; r < 2; ++r) {
    EXPECT_EQ(results[r], (std::vector<float>{3.0f, 4.0f, 6.0f, 8.0f}));
  }
}

TEST(JoinedCommunicators, AProcessThatNeverArrivesIsNamedBeforeNcclWaits) {
  ASSERT_EQ(setenv("PHAL_GPU_EMULATION", "1", 1), 0);
  ASSERT_EQ(setenv("PHAL_COLLECTIVE_TIMEOUT", "1", 1), 0);
  std::vector<std::string> failures(2);
  std::vector<std::vector<float>> results(2);
  RunJoinedAllReduce(false, &failures, &results);
  unsetenv("PHAL_COLLECTIVE_TIMEOUT");
  EXPECT_THAT(failures[0], HasSubstr("r over processes {0, 1} (collective 0 "
                                     "of its communicator)"));
  EXPECT_THAT(failures[0], HasSubstr("1"));
  EXPECT_EQ(failures[1], "");
}

TEST(TcpTransport, BadOptionsAreNamed) {
  phal_host_transport_t* transport = nullptr;
  EXPECT_THAT(MessageOf(phal_tcp_transport_create(nullptr, &transport)),
              HasSubstr("options"));
  phal_tcp_job_options_t options{};
  options.struct_size = 8;
  EXPECT_THAT(MessageOf(phal_tcp_transport_create(&options, &transport)),
              HasSubstr("struct_size is too small"));
  options.struct_size = sizeof(options);
  EXPECT_THAT(MessageOf(phal_tcp_transport_create(&options, &transport)),
              HasSubstr("options->coordinator"));
  options.coordinator = "no-port";
  options.process_count = 2;
  phal_status_t* status = phal_tcp_transport_create(&options, &transport);
  EXPECT_EQ(phal_status_get_code(status), PHAL_INVALID_ARGUMENT);
  EXPECT_THAT(MessageOf(status), HasSubstr("'no-port' is not HOST:PORT"));
  EXPECT_EQ(transport, nullptr);
  phal_tcp_transport_destroy(nullptr);
}

TEST(JobTransport, TwoProcessesJoinOverTcpAndMove) {
  const std::string coordinator =
      "127.0.0.1:" + std::to_string(testing::FreePort());
  std::vector<Result<JobTransport>> jobs;
  jobs.emplace_back(Error(PHAL_UNKNOWN, "not run"));
  jobs.emplace_back(Error(PHAL_UNKNOWN, "not run"));
  std::vector<std::thread> threads;
  for (uint32_t r = 0; r < 2; ++r) {
    threads.emplace_back([&, r] {
      jobs[r] = JobTransport::Tcp(coordinator, r, 2,
                                  std::chrono::milliseconds(30000));
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (uint32_t r = 0; r < 2; ++r) {
    ASSERT_TRUE(jobs[r].ok()) << jobs[r].error().ToString();
    JobTransport moved = std::move(jobs[r].value());
    EXPECT_EQ(jobs[r]->get(), nullptr);
    EXPECT_EQ(moved.rank(), static_cast<int>(r));
    EXPECT_EQ(moved.size(), 2);
  }
}

TEST(JobTransport, InitializeReadsTheEnvironment) {
  for (const char* variable :
       {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "PHAL_COORDINATOR",
        "PHAL_NUM_PROCESSES", "PHAL_PROCESS_ID"}) {
    unsetenv(variable);
  }
  Result<JobTransport> none = JobTransport::Initialize();
  EXPECT_EQ(none.error().code(), PHAL_INVALID_ARGUMENT);
  EXPECT_THAT(none.error().message(), HasSubstr("not started by mpirun"));
  setenv("PHAL_COORDINATOR", "127.0.0.1:1", 1);
  Result<JobTransport> partial = JobTransport::Initialize();
  EXPECT_THAT(partial.error().message(), HasSubstr("all set"));
  setenv("PHAL_NUM_PROCESSES", "1", 1);
  setenv("PHAL_PROCESS_ID", "1", 1);
  Result<JobTransport> outside = JobTransport::Initialize();
  EXPECT_THAT(outside.error().message(),
              HasSubstr("PHAL_PROCESS_ID='1' of PHAL_NUM_PROCESSES='1'"));
  setenv("PHAL_PROCESS_ID", "0", 1);
  Result<JobTransport> alone = JobTransport::Initialize();
  ASSERT_TRUE(alone.ok()) << alone.error().ToString();
  EXPECT_EQ(alone->size(), 1);
  for (const char* variable :
       {"PHAL_COORDINATOR", "PHAL_NUM_PROCESSES", "PHAL_PROCESS_ID"}) {
    unsetenv(variable);
  }
}

}  // namespace
}  // namespace phal
