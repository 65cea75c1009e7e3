// polyhal/transport.h and its C++ face transport.hpp: two clients of one
// job over the TCP transport (two threads here, as two processes would)
// number the job's devices alike; bad options get an error naming the
// member at fault; JobTransport::Initialize reads the environment.
#include "polyhal/transport.h"

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
