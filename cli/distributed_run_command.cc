// `mpirun -np N polyhal run MODULE --distributed mpi --plugin reference`: a
// program for N processes (replicas x partitions; a global program with
// shardings is partitioned first), one per MPI rank. Every rank reads the
// same global inputs and takes its piece; collectives meet over MPI
// (core/distributed/mpi_process_context.h); rank 0 gathers the pieces and
// writes the global outputs. The ranks first agree that they run the same
// program; a rank that fails ends the job (MPI_Abort), so mpirun exits
// non-zero instead of leaving its peers waiting.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/grid_program.h"
#include "cli/run_support.h"

#ifdef PHAL_HAVE_MPI
#include "core/distributed/mpi_job.h"
#include "core/distributed/mpi_process_context.h"
#include "core/executor/spmd_executor.h"
#include "core/hlo/printer.h"
#include "core/reference/interpreter.h"
#include "sdk/base/hash.h"
#endif

namespace phal::cli {

#ifdef PHAL_HAVE_MPI
namespace {

constexpr int kAgreeTag = 32001;
constexpr int kGatherTag = 32002;

// OK when every rank loaded the same program for the same number of
// processes; else FAILED_PRECONDITION naming the ranks that differ from 0.
Status AgreeOnProgram(MpiJob& job, const GridProgram& program,
                      std::chrono::milliseconds timeout) {
  uint64_t mine[2] = {Fnv1a(HloModuleToText(*program.module)),
                      static_cast<uint64_t>(program.processes)};
  std::vector<uint8_t> bytes(sizeof(mine));
  std::memcpy(bytes.data(), mine, sizeof(mine));
  PHAL_ASSIGN_OR_RETURN(std::vector<std::vector<uint8_t>> all,
                        job.AllGather(bytes, kAgreeTag, timeout,
                                      "agreeing on the program (rank " +
                                          std::to_string(job.rank()) + ")"));
  std::string differing;
  for (std::size_t r = 1; r < all.size(); ++r) {
    if (all[r] != all[0]) {
      differing += (differing.empty() ? "" : ", ") + std::to_string(r);
    }
  }
  if (differing.empty()) return OkStatus();
  return FailedPrecondition(
      "ranks {" + differing +
      "} loaded another program (or one for another number of processes) "
      "than rank 0: every rank must run the same module");
}

// Rank 0's copy of every rank's result leaves, the others' sent to it.
StatusOr<std::vector<std::vector<Literal>>> GatherLeaves(
    MpiJob& job, const GridProgram& program, std::vector<Literal> mine,
    std::chrono::milliseconds timeout) {
  std::vector<MpiJob::Message> sends;
  std::vector<MpiJob::Message> receives;
  std::size_t total = 0;
  for (const Shape& shape : program.result_shapes) total += shape.ByteSize();
  if (job.rank() != 0) {
    std::vector<uint8_t> bytes;
    for (const Literal& leaf : mine) {
      bytes.insert(bytes.end(), leaf.data(), leaf.data() + leaf.byte_size());
    }
    sends.push_back({0, std::move(bytes)});
  } else {
    for (int peer = 1; peer < job.size(); ++peer) {
      receives.push_back({peer, std::vector<uint8_t>(total)});
    }
  }
  PHAL_RETURN_IF_ERROR(job.Exchange(sends, receives, kGatherTag, timeout,
                                    "gathering the results on rank 0 (rank " +
                                        std::to_string(job.rank()) + ")"));
  std::vector<std::vector<Literal>> leaves;
  if (job.rank() != 0) return leaves;
  leaves.push_back(std::move(mine));
  for (const MpiJob::Message& message : receives) {
    std::vector<Literal>& theirs = leaves.emplace_back();
    std::size_t offset = 0;
    for (const Shape& shape : program.result_shapes) {
      Literal leaf(shape);
      std::memcpy(leaf.data(), message.bytes.data() + offset, leaf.byte_size());
      offset += leaf.byte_size();
      theirs.push_back(std::move(leaf));
    }
  }
  return leaves;
}

Status RunDistributed(MpiJob& job, const RunOptions& options) {
  if (options.plugin != "reference") {
    return Unimplemented(
        "--distributed mpi runs the reference interpreter (--plugin "
        "reference) in this version; plugin devices in several processes "
        "are not implemented yet");
  }
  PHAL_ASSIGN_OR_RETURN(std::chrono::milliseconds timeout,
                        CollectiveTimeoutFromEnv());
  RunOptions grid_options = options;
  grid_options.devices = job.size();
  PHAL_ASSIGN_OR_RETURN(GridProgram program, LoadGridProgram(grid_options));
  PHAL_RETURN_IF_ERROR(AgreeOnProgram(job, program, timeout));
  PHAL_ASSIGN_OR_RETURN(std::vector<std::vector<Literal>> arguments,
                        SplitInputs(program, grid_options));
  ProcessGrid grid;
  grid.replicas = program.module->replica_count();
  grid.partitions = program.module->num_partitions();
  MpiProcessContext context(job, grid, timeout);
  PHAL_ASSIGN_OR_RETURN(
      Literal result,
      reference::EvaluateProcess(
          *program.module, arguments[static_cast<std::size_t>(job.rank())],
          &context));
  std::vector<Literal> mine;
  TakeLeaves(std::move(result), &mine);
  PHAL_ASSIGN_OR_RETURN(std::vector<std::vector<Literal>> leaves,
                        GatherLeaves(job, program, std::move(mine), timeout));
  if (job.rank() != 0) return OkStatus();
  std::vector<Literal> globals;
  for (std::size_t i = 0; i < program.result_shapes.size(); ++i) {
    PHAL_ASSIGN_OR_RETURN(Literal global, GlobalResult(program, leaves, i));
    globals.push_back(std::move(global));
  }
  return EmitOutputs(Literal::Tuple(std::move(globals)), options);
}

}  // namespace

int RunDistributedFile(const RunOptions& options) {
  StatusOr<MpiJob*> job = MpiJob::Get();
  if (!job.ok()) {
    std::fprintf(stderr, "polyhal run: --distributed mpi: %s\n",
                 job.status().message().c_str());
    return kExitFailure;
  }
  const Status status = RunDistributed(**job, options);
  if (status.ok()) return kExitSuccess;
  std::fprintf(stderr, "polyhal run: rank %d of %d: %s\n", (*job)->rank(),
               (*job)->size(), status.message().c_str());
  std::fflush(stderr);
  (*job)->Abort(kExitFailure);
}

#else

int RunDistributedFile(const RunOptions&) {
  std::fprintf(stderr,
               "polyhal run: --distributed mpi needs a build with MPI: "
               "install Open MPI's headers (libopenmpi-dev; "
               "scripts/install-deps.sh installs them) and rebuild\n");
  return kExitFailure;
}

#endif

}  // namespace phal::cli
