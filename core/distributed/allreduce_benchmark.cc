// All-reduce bus bandwidth across the ranks of an MPI job: a program whose
// processes (one per device of every rank) all-reduce an f32 array, run
// through the C API's distributed client (phal_executable_compile_global
// over MpiJob's transport, or with --transport tcp over a TCP job of the
// same ranks), against MPI_Allreduce called directly on buffers of the
// same size, in the same run. Bandwidths as nccl-tests define them:
// algbw = bytes / time, busbw = algbw * 2 (n - 1) / n for n participants.
// Not a test; docs/distributed.md has its figures.
//
//   scripts/mpirun.sh -np 4 build/bin/polyhal_allreduce_benchmark
//       [--plugin cpu] [--transport mpi|tcp] [--repeat 20] [SIZE_BYTES...]
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "core/distributed/mpi_job.h"
#include "core/distributed/tcp_job.h"
#include "core/testing/free_port.h"
#include "polyhal/polyhal.hpp"

namespace phal {
namespace {

std::string Module(int64_t elements, int64_t processes) {
  return "HloModule all_reduce, replica_count=" + std::to_string(processes) +
         "\nadd {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
         "  ROOT s = f32[] add(a, b)\n}\nENTRY main {\n  x = f32[" +
         std::to_string(elements) + "] parameter(0)\n  ROOT r = f32[" +
         std::to_string(elements) +
         "] all-reduce(x), replica_groups={}, to_apply=add\n}\n";
}

// The median of `samples` seconds.
double Median(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

double Seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

int Run(int argc, char** argv) {
  StatusOr<MpiJob*> job = MpiJob::Get();
  if (!job.ok()) {
    std::fprintf(stderr, "%s\n", job.status().message().c_str());
    return 1;
  }
  std::string plugin = "cpu";
  std::string transport = "mpi";
  int repeat = 20;
  std::vector<int64_t> sizes;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--plugin" && i + 1 < argc) {
      plugin = argv[++i];
    } else if (arg == "--transport" && i + 1 < argc) {
      transport = argv[++i];
    } else if (arg == "--repeat" && i + 1 < argc) {
      repeat = std::max(1, std::atoi(argv[++i]));
    } else {
      sizes.push_back(std::atoll(arg.c_str()));
    }
  }
  if (sizes.empty()) sizes = {4096, 262144, 4194304, 16777216};
  phal_client_options_t options{};
  options.struct_size = sizeof(options);
  options.transport = (*job)->c_transport();
  std::unique_ptr<TcpJob> tcp;
  if (transport == "tcp") {
    // Rank 0 picks the coordinator's port; MPI tells the others.
    int port = (*job)->rank() == 0 ? testing::FreePort() : 0;
    MPI_Bcast(&port, 1, MPI_INT, 0, MPI_COMM_WORLD);
    TcpJobOptions tcp_options;
    tcp_options.coordinator = "127.0.0.1:" + std::to_string(port);
    tcp_options.rank = (*job)->rank();
    tcp_options.size = (*job)->size();
    StatusOr<std::unique_ptr<TcpJob>> joined = TcpJob::Connect(tcp_options);
    if (!joined.ok()) {
      std::fprintf(stderr, "%s\n", joined.status().message().c_str());
      return 1;
    }
    tcp = std::move(*joined);
    options.transport = tcp->c_transport();
  } else if (transport != "mpi") {
    std::fprintf(stderr, "--transport is mpi or tcp\n");
    return 1;
  }
  Result<Client> client = Client::Create(&options);
  if (!client.ok()) {
    std::fprintf(stderr, "%s\n", client.error().message().c_str());
    return 1;
  }
  std::vector<size_t> assignment;
  std::vector<Device> mine;
  const std::vector<phal_global_device_t> table = client->GlobalDevices();
  for (size_t g = 0; g < table.size(); ++g) {
    if (plugin != table[g].plugin_name) continue;
    assignment.push_back(g);
    if (table[g].device != nullptr) mine.emplace_back(table[g].device);
  }
  const int me = (*job)->rank();
  const auto n = static_cast<int64_t>(assignment.size());
  if (me == 0) {
    std::printf(
        "all-reduce of f32, %d ranks over %s, %lld devices of '%s' (median "
        "of %d)\n"
        "| bytes | MPI_Allreduce busbw | Polyhal busbw | Polyhal / MPI |\n"
        "|---:|---:|---:|---:|\n",
        (*job)->size(), transport.c_str(), static_cast<long long>(n),
        plugin.c_str(), repeat);
  }
  for (int64_t bytes : sizes) {
    const int64_t elements = std::max<int64_t>(1, bytes / 4);
    Result<Executable> executable = Executable::CompileGlobal(
        client->get(), assignment, Module(elements, n));
    if (!executable.ok()) {
      std::fprintf(stderr, "rank %d: %s\n", me,
                   executable.error().message().c_str());
      return 1;
    }
    std::vector<std::vector<Buffer>> inputs;
    std::vector<float> host(static_cast<std::size_t>(elements), 1.0f);
    for (const Device& device : mine) {
      Result<Buffer> buffer =
          Buffer::Allocate(device, PHAL_ELEMENT_TYPE_F32, {elements});
      buffer->CopyFromHost(host.data(), host.size() * sizeof(float));
      inputs.emplace_back().push_back(std::move(buffer.value()));
    }
    std::vector<double> polyhal;
    for (int r = 0; r <= repeat; ++r) {
      MPI_Barrier(MPI_COMM_WORLD);
      const auto start = std::chrono::steady_clock::now();
      Result<std::vector<std::vector<Buffer>>> results =
          executable->ExecuteOnDevices(inputs);
      if (!results.ok()) {
        std::fprintf(stderr, "rank %d: %s\n", me,
                     results.error().message().c_str());
        return 1;
      }
      MPI_Barrier(MPI_COMM_WORLD);
      if (r > 0) polyhal.push_back(Seconds(start));
    }
    // MPI alone: one buffer per rank, n participants' worth of ranks.
    std::vector<float> send(static_cast<std::size_t>(elements), 1.0f);
    std::vector<float> receive(send.size());
    std::vector<double> mpi;
    for (int r = 0; r <= repeat; ++r) {
      MPI_Barrier(MPI_COMM_WORLD);
      const auto start = std::chrono::steady_clock::now();
      MPI_Allreduce(send.data(), receive.data(), static_cast<int>(elements),
                    MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
      MPI_Barrier(MPI_COMM_WORLD);
      if (r > 0) mpi.push_back(Seconds(start));
    }
    const double size = static_cast<double>(elements) * 4.0;
    const double polyhal_bus = size / Median(polyhal) * 2.0 *
                               static_cast<double>(n - 1) /
                               static_cast<double>(n);
    const int ranks = (*job)->size();
    const double mpi_bus = size / Median(mpi) * 2.0 * (ranks - 1) / ranks;
    if (me == 0) {
      std::printf("| %lld | %.3f GB/s | %.3f GB/s | %.2f |\n",
                  static_cast<long long>(elements * 4), mpi_bus / 1e9,
                  polyhal_bus / 1e9, polyhal_bus / mpi_bus);
    }
  }
  return 0;
}

}  // namespace
}  // namespace phal

int main(int argc, char** argv) { return phal::Run(argc, argv); }
