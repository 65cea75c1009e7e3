// `mpirun -np N polyhal run MODULE --distributed mpi [--plugin P]
// [--devices D]`, or N processes of `polyhal run MODULE --distributed tcp
// --coordinator HOST:PORT --num-processes N --process-id K ...`: a program
// for several processes (replicas x partitions; a global program with
// shardings is partitioned first) over the devices of every rank of a job
// (an MPI job, or one formed over TCP: core/distributed). Each rank's
// client joins the job (phal_client_options_t::transport), the job's
// devices of the
// plugin are numbered in rank order, and the first D of them (all by
// default) run the program's processes, collectives meeting over MPI where
// their groups span ranks (core/executor/distributed_grid.h). With
// --plugin reference each rank interprets one process. Every rank reads
// the same global inputs and takes its processes' pieces; rank 0 gathers
// the pieces and writes the global outputs. The ranks first agree that
// they run the same program; a rank that fails ends the job (MPI_Abort;
// over TCP it closes its connections, so that its peers fail at once), so
// mpirun exits non-zero instead of leaving its peers waiting.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/grid_program.h"
#include "cli/plugin_program.h"
#include "cli/run_support.h"

#include "core/distributed/tcp_job.h"
#include "core/executor/distributed_grid.h"
#include "core/executor/spmd_executor.h"
#include "core/hlo/printer.h"
#include "core/reference/interpreter.h"
#include "sdk/base/hash.h"

#ifdef PHAL_HAVE_MPI
#include "core/distributed/mpi_job.h"
#endif

namespace phal::cli {
namespace {

constexpr int kAgreeTag = 32001;
constexpr int kGatherTag = 32002;

// OK when every rank loaded the same program for the same number of
// processes; else FAILED_PRECONDITION naming the ranks that differ from 0.
Status AgreeOnProgram(HostTransport& job, const GridProgram& program,
                      std::chrono::milliseconds timeout) {
  uint64_t mine[2] = {Fnv1a(HloModuleToText(*program.module)),
                      static_cast<uint64_t>(program.processes)};
  std::vector<uint8_t> bytes(sizeof(mine));
  std::memcpy(bytes.data(), mine, sizeof(mine));
  PHAL_ASSIGN_OR_RETURN(std::vector<std::vector<uint8_t>> all,
                        job.AllGather(bytes, kAgreeTag, timeout,
                                      "agreeing on the program (rank " +
                                          std::to_string(job.rank()) + ")"));
  std::vector<int> differing;
  for (std::size_t r = 1; r < all.size(); ++r) {
    if (all[r] != all[0]) differing.push_back(static_cast<int>(r));
  }
  if (differing.empty()) return OkStatus();
  return FailedPrecondition(
      "ranks " + RankListToString(differing) +
      " loaded another program (or one for another number of processes) "
      "than rank 0: every rank must run the same module");
}

// Rank 0's copy of every process's result leaves: each rank sends those of
// its own processes (`mine`, in process order), process k's coming from
// rank_of[k].
StatusOr<std::vector<std::vector<Literal>>> GatherLeaves(
    HostTransport& job, const GridProgram& program,
    const std::vector<int>& rank_of, std::vector<std::vector<Literal>> mine,
    std::chrono::milliseconds timeout) {
  std::size_t total = 0;
  for (const Shape& shape : program.result_shapes) total += shape.ByteSize();
  std::vector<HostTransport::Message> sends;
  std::vector<HostTransport::Message> receives;
  if (job.rank() != 0) {
    std::vector<uint8_t> bytes;
    for (const std::vector<Literal>& process : mine) {
      for (const Literal& leaf : process) {
        bytes.insert(bytes.end(), leaf.data(), leaf.data() + leaf.byte_size());
      }
    }
    sends.push_back({0, std::move(bytes)});
  } else {
    for (int peer = 1; peer < job.size(); ++peer) {
      const auto processes = std::count(rank_of.begin(), rank_of.end(), peer);
      receives.push_back(
          {peer,
           std::vector<uint8_t>(static_cast<std::size_t>(processes) * total)});
    }
  }
  PHAL_RETURN_IF_ERROR(job.Exchange(sends, receives, kGatherTag, timeout,
                                    "gathering the results on rank 0 (rank " +
                                        std::to_string(job.rank()) + ")"));
  std::vector<std::vector<Literal>> leaves(rank_of.size());
  if (job.rank() != 0) return leaves;
  std::vector<std::size_t> offsets(static_cast<std::size_t>(job.size()), 0);
  std::size_t next_mine = 0;
  for (std::size_t k = 0; k < rank_of.size(); ++k) {
    const int rank = rank_of[k];
    if (rank == 0) {
      leaves[k] = std::move(mine[next_mine++]);
      continue;
    }
    const std::vector<uint8_t>& bytes =
        receives[static_cast<std::size_t>(rank - 1)].bytes;
    std::size_t& offset = offsets[static_cast<std::size_t>(rank)];
    for (const Shape& shape : program.result_shapes) {
      Literal leaf(shape);
      std::memcpy(leaf.data(), bytes.data() + offset, leaf.byte_size());
      offset += leaf.byte_size();
      leaves[k].push_back(std::move(leaf));
    }
  }
  return leaves;
}

// Rank 0 writes the global outputs of every process's `leaves`.
Status EmitGlobalOutputs(const GridProgram& program,
                         const std::vector<std::vector<Literal>>& leaves,
                         const RunOptions& options) {
  std::vector<Literal> globals;
  for (std::size_t i = 0; i < program.result_shapes.size(); ++i) {
    PHAL_ASSIGN_OR_RETURN(Literal global, GlobalResult(program, leaves, i));
    globals.push_back(std::move(global));
  }
  return EmitOutputs(Literal::Tuple(std::move(globals)), options);
}

// --plugin reference: rank k interprets process k.
Status RunOnReference(HostTransport& job, const RunOptions& options,
                      std::chrono::milliseconds timeout) {
  RunOptions grid_options = options;
  grid_options.devices = job.size();
  PHAL_ASSIGN_OR_RETURN(GridProgram program, LoadGridProgram(grid_options));
  PHAL_RETURN_IF_ERROR(AgreeOnProgram(job, program, timeout));
  PHAL_ASSIGN_OR_RETURN(std::vector<std::vector<Literal>> arguments,
                        SplitInputs(program, grid_options));
  std::vector<int> rank_of;
  for (int rank = 0; rank < job.size(); ++rank) rank_of.push_back(rank);
  const HloModule* const modules[] = {program.module.get()};
  PHAL_ASSIGN_OR_RETURN(
      DistributedGrid grid,
      DistributedGrid::Create(job,
                              ProcessGrid{program.module->replica_count(),
                                          program.module->num_partitions()},
                              rank_of, timeout, modules));
  std::vector<std::vector<Literal>> mine(1);
  PHAL_RETURN_IF_ERROR(
      grid.Run([&](int64_t k, reference::ProcessContext* context) -> Status {
        PHAL_ASSIGN_OR_RETURN(
            Literal result,
            reference::EvaluateProcess(*program.module,
                                       arguments[static_cast<std::size_t>(k)],
                                       context));
        TakeLeaves(std::move(result), &mine[0]);
        return OkStatus();
      }));
  PHAL_ASSIGN_OR_RETURN(
      std::vector<std::vector<Literal>> leaves,
      GatherLeaves(job, program, rank_of, std::move(mine), timeout));
  if (job.rank() != 0) return OkStatus();
  return EmitGlobalOutputs(program, leaves, options);
}

// A plugin's devices over every rank: the client joins the job, and the
// program runs on the job's first --devices devices of the plugin.
Status RunOnDevices(RawHostTransport& job, const RunOptions& options,
                    std::chrono::milliseconds timeout) {
  phal_client_options_t client_options{};
  client_options.struct_size = sizeof(client_options);
  client_options.transport = job.c_transport();
  Result<Client> client = Client::Create(&client_options);
  PHAL_RETURN_IF_ERROR(StatusFromError(client.error()));
  // The plugin's devices of the job, in global (rank) order.
  std::vector<size_t> candidates;
  const std::vector<phal_global_device_t> table = client->GlobalDevices();
  for (std::size_t g = 0; g < table.size(); ++g) {
    if (options.plugin == table[g].plugin_name) candidates.push_back(g);
  }
  const int64_t wanted = options.devices > 0
                             ? options.devices
                             : static_cast<int64_t>(candidates.size());
  if (wanted > static_cast<int64_t>(candidates.size()) || wanted == 0) {
    return NotFound("the job's " + std::to_string(job.size()) +
                    " processes have " + std::to_string(candidates.size()) +
                    " devices of plugin '" + options.plugin + "', " +
                    (options.devices > 0
                         ? "--devices asks for " + std::to_string(wanted)
                         : std::string("none to run on")) +
                    " (PHAL_VIRTUAL_DEVICES=N gives each process N devices "
                    "of the plugins that can offer more than the hardware "
                    "has)");
  }
  candidates.resize(static_cast<std::size_t>(wanted));
  std::vector<int> rank_of;
  std::vector<int> idle;
  for (size_t g : candidates) {
    rank_of.push_back(static_cast<int>(table[g].process_index));
  }
  for (int rank = 0; rank < job.size(); ++rank) {
    if (std::find(rank_of.begin(), rank_of.end(), rank) == rank_of.end()) {
      idle.push_back(rank);
    }
  }
  if (!idle.empty()) {
    return FailedPrecondition(
        "ranks " + RankListToString(idle) + " have none of the first " +
        std::to_string(wanted) + " devices of plugin '" + options.plugin +
        "': run fewer ranks, or ask for more devices with --devices");
  }
  RunOptions grid_options = options;
  grid_options.devices = wanted;
  PHAL_ASSIGN_OR_RETURN(GridProgram program, LoadGridProgram(grid_options));
  PHAL_ASSIGN_OR_RETURN(std::vector<std::vector<Literal>> arguments,
                        SplitInputs(program, grid_options));
  PHAL_ASSIGN_OR_RETURN(std::string text, ReadTextFile(options.module_path));
  Result<Executable> executable = Executable::CompileGlobal(
      client->get(), candidates, text, ProgramFormatOf(options.module_path),
      options.module_path);
  PHAL_RETURN_IF_ERROR(StatusFromError(executable.error()));
  // This rank's processes' arguments, on its devices in process order.
  std::vector<std::vector<Buffer>> inputs;
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    if (rank_of[k] != job.rank()) continue;
    PHAL_ASSIGN_OR_RETURN(
        std::vector<Buffer> mine,
        UploadArguments(Device(table[candidates[k]].device), arguments[k]));
    inputs.push_back(std::move(mine));
  }
  Result<std::vector<std::vector<Buffer>>> results =
      executable->ExecuteOnDevices(inputs);
  PHAL_RETURN_IF_ERROR(StatusFromError(results.error()));
  PHAL_ASSIGN_OR_RETURN(std::vector<std::vector<Literal>> mine,
                        Download(program, *results));
  PHAL_ASSIGN_OR_RETURN(
      std::vector<std::vector<Literal>> leaves,
      GatherLeaves(job, program, rank_of, std::move(mine), timeout));
  if (job.rank() != 0) return OkStatus();
  return EmitGlobalOutputs(program, leaves, options);
}

Status RunDistributed(RawHostTransport& job, const RunOptions& options,
                      std::chrono::milliseconds timeout) {
  if (options.plugin == "reference") {
    if (options.devices > 0 && options.devices != job.size()) {
      return InvalidArgument(
          "--plugin reference runs one process per rank: --devices " +
          std::to_string(options.devices) + " in a job of " +
          std::to_string(job.size()) + " ranks");
    }
    return RunOnReference(job, options, timeout);
  }
  return RunOnDevices(job, options, timeout);
}

void ReportRankFailure(const HostTransport& job, const Status& status) {
  std::fprintf(stderr, "polyhal run: rank %d of %d: %s\n", job.rank(),
               job.size(), status.message().c_str());
  std::fflush(stderr);
}

int RunOverTcp(const RunOptions& options, std::chrono::milliseconds timeout) {
  TcpJobOptions join;
  join.coordinator = options.coordinator;
  join.rank = options.process_id;
  join.size = options.num_processes;
  join.timeout = timeout;
  StatusOr<std::unique_ptr<TcpJob>> job = TcpJob::Connect(join);
  if (!job.ok()) {
    std::fprintf(stderr, "polyhal run: --distributed tcp: %s\n",
                 job.status().message().c_str());
    return kExitFailure;
  }
  const Status status = RunDistributed(**job, options, timeout);
  if (status.ok()) return kExitSuccess;
  ReportRankFailure(**job, status);
  // The peers waiting on this rank fail now, naming it.
  (*job)->Abandon();
  return kExitFailure;
}

}  // namespace

int RunDistributedFile(const RunOptions& options) {
  StatusOr<std::chrono::milliseconds> timeout = CollectiveTimeoutFromEnv();
  if (!timeout.ok()) {
    std::fprintf(stderr, "polyhal run: %s\n",
                 timeout.status().message().c_str());
    return kExitFailure;
  }
  if (options.distributed == "tcp") return RunOverTcp(options, *timeout);
#ifdef PHAL_HAVE_MPI
  StatusOr<MpiJob*> job = MpiJob::Get();
  if (!job.ok()) {
    std::fprintf(stderr, "polyhal run: --distributed mpi: %s\n",
                 job.status().message().c_str());
    return kExitFailure;
  }
  const Status status = RunDistributed(**job, options, *timeout);
  if (status.ok()) return kExitSuccess;
  ReportRankFailure(**job, status);
  (*job)->Abort(kExitFailure);
#else
  std::fprintf(stderr,
               "polyhal run: --distributed mpi needs a build with MPI: "
               "install Open MPI's headers (libopenmpi-dev; "
               "scripts/install-deps.sh installs them) and rebuild, or use "
               "--distributed tcp\n");
  return kExitFailure;
#endif
}

}  // namespace phal::cli
