// polyhal: list plugins and devices; later commands run and benchmark
// modules. See docs/cli.md.
#include <cstdio>
#include <cstring>
#include <map>
#include <string>

#include "cli/command.h"
#include "polyhal/runtime.h"

namespace phal::cli {
namespace {

struct Command {
  int (*run)(const Arguments&);
  const char* summary;
  const char* usage;
};

const std::map<std::string, Command>& Commands() {
  static const std::map<std::string, Command> commands = {
      {"plugins",
       {&RunPlugins, "list every plugin manifest found, loaded or skipped",
        "usage: polyhal plugins [--json]\n"
        "\n"
        "Lists every plugin manifest on the search path in search order, with\n"
        "its version, negotiated ABI and device count, or the exact reason it\n"
        "was skipped. Always exits 0 when the listing itself succeeds.\n"
        "\n"
        "  --json   print a JSON document instead of text\n"
        "\n"
        "Environment: PHAL_PLUGIN_PATH replaces the search path "
        "(':'-separated\n"
        "directories or manifest files); PHAL_PLUGINS keeps only the named\n"
        "plugins (comma-separated); PHAL_LOG=debug traces the search.\n"}},
      {"run",
       {&RunModule, "run an HLO module on a plugin or the reference",
        "usage: polyhal run MODULE [--plugin NAME] [--input FILE.npy]...\n"
        "                  [--random-inputs SEED] [--output-dir DIR] "
        "[--print]\n"
        "                  [--devices N [--per-device]]\n"
        "                  [--distributed mpi | --distributed tcp "
        "--coordinator HOST:PORT\n"
        "                   --num-processes N --process-id K]\n"
        "\n"
        "Parses MODULE (XLA HLO text, StableHLO text when it ends in .mlir,\n"
        "or a StableHLO portable artifact, told by its magic number; a\n"
        "serialized executable of 'polyhal compile' is loaded on its\n"
        "plugin instead), verifies it, binds one .npy input per\n"
        "entry parameter in order, runs it and emits the root's leaves "
        "(tuples\n"
        "flattened in order) as DIR/output_0.npy, DIR/output_1.npy, ...\n"
        "\n"
        "  --plugin NAME          where to run: a plugin's first device\n"
        "                         ('cpu' is the default), or 'reference',\n"
        "                         the reference interpreter\n"
        "  --input FILE.npy       the next parameter's value (repeatable)\n"
        "  --random-inputs SEED   fill parameters without --input\n"
        "                         deterministically from SEED\n"
        "  --output-dir DIR       write output_<i>.npy files into DIR\n"
        "  --print                print each output as numpy would\n"
        "  --devices N            a program for N processes on the plugin's\n"
        "                         first N devices (or the reference's grid):\n"
        "                         global inputs split and outputs assembled\n"
        "                         by the entry's shardings\n"
        "  --per-device           with --devices, also write each device's\n"
        "                         outputs as output_<i>.device_<d>.npy\n"
        "  --distributed mpi      under mpirun: the program runs over the\n"
        "                         plugin's devices of every rank (the first\n"
        "                         N with --devices N; rank 0 writes the\n"
        "                         outputs); docs/distributed.md\n"
        "  --distributed tcp      the same over TCP on processes started\n"
        "                         any way: process K of N, process 0\n"
        "                         listening at --coordinator HOST:PORT\n"}},
      {"bench",
       {&RunBench, "time compiling and running a module on a plugin",
        "usage: polyhal bench MODULE [--plugin NAME] [--repeat N] [--json]\n"
        "                    [--input FILE.npy]... [--random-inputs SEED]\n"
        "                    [--devices N]\n"
        "\n"
        "Parses MODULE (HLO text, or a one-module StableHLO .mlir file),\n"
        "compiles it for the plugin's first device, uploads the inputs, runs\n"
        "it once, then N more times, and prints the parse, compile, upload\n"
        "and first-run times and the median, minimum, mean and maximum of\n"
        "the N runs, in milliseconds of wall time. Each run is one blocking\n"
        "execute, results left on the device. Parameters without --input\n"
        "get deterministic random values (seed 0 unless --random-inputs).\n"
        "\n"
        "  --plugin NAME          a plugin ('cpu' is the default), or\n"
        "                         'reference' for the interpreter\n"
        "  --repeat N             timed runs after the first (default 10)\n"
        "  --input FILE.npy       the next parameter's value (repeatable)\n"
        "  --random-inputs SEED   the seed of the random inputs\n"
        "  --json                 print a JSON document instead of text\n"
        "  --devices N            a program for N processes on the plugin's\n"
        "                         first N devices, all at once per run; the\n"
        "                         inputs are global, as for 'run --devices'\n"
        "\n"
        "Kernel caches make compile times warm: PHAL_CACHE_DIR=off measures\n"
        "the cpu plugin's cold compile.\n"}},
      {"compile",
       {&RunCompile, "compile a module ahead of time, with no device",
        "usage: polyhal compile MODULE --plugin NAME [--target T] --output "
        "FILE\n"
        "                      [--dump-dir DIR]\n"
        "\n"
        "Compiles MODULE (XLA HLO text, or StableHLO text when it ends in\n"
        ".mlir) on a compile-only device of the plugin, which needs no\n"
        "hardware, and writes the serialized executable to FILE. 'polyhal run\n"
        "FILE' loads and runs it later on a device of that plugin and target.\n"
        "\n"
        "  --plugin NAME   the plugin that compiles ('polyhal plugins' lists\n"
        "                  them and their targets)\n"
        "  --target T      the target to compile for (default: the plugin's\n"
        "                  first target, e.g. 'host' for cpu)\n"
        "  --output FILE   where the serialized executable goes\n"
        "  --dump-dir DIR  also write each kernel's device code as text into\n"
        "                  DIR, one file per kernel (e.g. fusion.ll, .ptx)\n"}},
      {"convert",
       {&RunConvert, "print a StableHLO module or artifact as HLO text",
        "usage: polyhal convert FILE.mlir|FILE.mlirbc|FILE.hlo --to hlo\n"
        "                       [--partition]\n"
        "       polyhal convert FILE.mlirbc --to stablehlo\n"
        "\n"
        "Parses FILE.mlir (StableHLO MLIR text) or a StableHLO portable\n"
        "artifact (VHLO bytecode, told by its magic number, as jax.export\n"
        "writes) into the HLO IR and prints it as XLA HLO text, which\n"
        "'polyhal run' and XLA read. A file of several parts separated by\n"
        "'// -----' prints each part. --to stablehlo prints the StableHLO\n"
        "text a portable artifact holds.\n"
        "\n"
        "  --partition  print the per-device program the SPMD partitioner\n"
        "               makes of a global program with shardings (jax.jit\n"
        "               with in_shardings), and on stderr what its\n"
        "               collectives send per device and execution\n"}},
      {"conformance",
       {&RunConformance, "certify a plugin against the reference semantics",
        "usage: polyhal conformance --plugin NAME|PATH [--tier 1|2|3]\n"
        "                          [--filter GLOB[,GLOB...]] [--jobs N] "
        "[--isolate]\n"
        "                          [--validate] [--timeout S] [--corpus DIR]\n"
        "                          [--report DIR] [--list]\n"
        "\n"
        "Runs every conformance case of tiers 1..T on every device of the\n"
        "plugin, compares with the reference interpreter under the tolerance\n"
        "policy and writes DIR/report.json and DIR/report.html. Exits 0 only\n"
        "when the plugin is certified at the tier. See docs/conformance.md.\n"
        "\n"
        "  --plugin NAME|PATH  a plugin name, a manifest .json, a directory "
        "of\n"
        "                      manifests or a plugin library .so\n"
        "  --tier T            certify at tier T (default 3)\n"
        "  --filter GLOB       only cases whose id matches (repeatable)\n"
        "  --jobs N            run N cases at once (default 1)\n"
        "  --isolate           run each case in a child process, so a crash "
        "or\n"
        "                      a hang costs one case\n"
        "  --validate          check every call to the plugin against the ABI\n"
        "                      contract (PHAL_VALIDATION=1; "
        "docs/reliability.md)\n"
        "  --timeout S         a case running longer is a Timeout (--isolate;\n"
        "                      default 120)\n"
        "  --corpus DIR        also run the StableHLO files with checks in "
        "DIR\n"
        "  --report DIR        where the report goes (default\n"
        "                      conformance-report)\n"
        "  --list              print the selected cases and exit\n"}},
      {"stress",
       {&RunStress,
        "compile and run many modules from many threads for a while",
        "usage: polyhal stress [--plugin NAME]... [--threads N] [--duration "
        "S]\n"
        "                     [--warmup S] [--modules FILE|DIR]... "
        "[--filter GLOB]...\n"
        "                     [--input-sets N] [--compile-every N] [--seed "
        "S]\n"
        "                     [--rss-tolerance MIB] [--validate] [--json]\n"
        "\n"
        "Load and soak: N threads share one client and, for S seconds, run\n"
        "modules chosen at random on every chosen device, each result\n"
        "checked against the reference interpreter under the conformance\n"
        "tolerance policy. Before the timed run every module is compiled for\n"
        "every device and the reference computes every input set's results.\n"
        "Resident memory is sampled each second. Exits 1 on any mismatch,\n"
        "error or logged error, on objects left at client destroy, or when\n"
        "memory grows after the warm-up by more than the tolerance. See\n"
        "docs/reliability.md.\n"
        "\n"
        "  --plugin NAME       run on this plugin's devices (repeatable;\n"
        "                      default: every plugin that has a device)\n"
        "  --threads N         threads running work (default 4)\n"
        "  --duration S        seconds of the timed run (default 60)\n"
        "  --warmup S          seconds before the memory baseline (default a\n"
        "                      third of the run, at most 60)\n"
        "  --modules FILE|DIR  run these HLO/StableHLO files (.hlo, .txt,\n"
        "                      .mlir; directories recursively) instead of the\n"
        "                      built-in set (repeatable)\n"
        "  --filter GLOB       choose the built-in modules among the\n"
        "                      conformance cases by id (repeatable)\n"
        "  --input-sets N      seeds per module's random inputs (default 4)\n"
        "  --compile-every N   one run in N compiles the module afresh\n"
        "                      (default 8)\n"
        "  --seed S            the run's seed (default 0)\n"
        "  --rss-tolerance MIB growth allowed after the warm-up (default 32;\n"
        "                      1024 under ASan or TSan)\n"
        "  --validate          check every plugin call against the ABI\n"
        "                      contract and leaks at destroy "
        "(PHAL_VALIDATION=1)\n"
        "  --json              print a JSON document instead of text\n"}},
      {"devices",
       {&RunDevices, "list the devices of every loaded plugin",
        "usage: polyhal devices [--json]\n"
        "\n"
        "Lists every device with its plugin, name, vendor, kind, compute\n"
        "units, memory, alignment, UUID, element types and ISA features.\n"
        "\n"
        "  --json   print a JSON document instead of text\n"}},
  };
  return commands;
}

void PrintHelp() {
  std::printf(
      "usage: polyhal <command> [options]\n"
      "       polyhal --version | --help | help <command>\n"
      "\n"
      "Polyhal compiles and runs HLO and StableHLO programs on any device\n"
      "a backend plugin drives.\n"
      "\n"
      "commands:\n");
  for (const auto& [name, command] : Commands()) {
    std::printf("  %-10s %s\n", name.c_str(), command.summary);
  }
  std::printf("\nRun 'polyhal help <command>' for a command's options.\n");
}

int Help(const Arguments& arguments) {
  if (arguments.empty()) {
    PrintHelp();
    return kExitSuccess;
  }
  auto it = Commands().find(arguments[0]);
  if (it == Commands().end() || arguments.size() > 1) {
    std::fprintf(stderr, "polyhal help: unknown command '%s'\n",
                 arguments[0].c_str());
    return kExitUsage;
  }
  std::printf("%s", it->second.usage);
  return kExitSuccess;
}

int Main(int argc, char** argv) {
  if (argc < 2) {
    PrintHelp();
    return kExitUsage;
  }
  std::string first = argv[1];
  Arguments rest(argv + 2, argv + argc);
  if (first == "--help" || first == "-h") return Help({});
  if (first == "help") return Help(rest);
  if (first == "--version") {
    std::printf("polyhal %s (ABI %u.%u)\n", phal_get_version_string(),
                PHAL_VERSION_MAJOR(phal_get_abi_version()),
                PHAL_VERSION_MINOR(phal_get_abi_version()));
    return kExitSuccess;
  }
  auto it = Commands().find(first);
  if (it == Commands().end()) {
    std::fprintf(stderr,
                 "polyhal: unknown %s '%s'\nRun 'polyhal --help' for the "
                 "list of commands.\n",
                 first.rfind("-", 0) == 0 ? "option" : "command",
                 first.c_str());
    return kExitUsage;
  }
  for (const std::string& argument : rest) {
    if (argument == "--help" || argument == "-h") return Help({first});
  }
  return it->second.run(rest);
}

}  // namespace
}  // namespace phal::cli

int main(int argc, char** argv) { return phal::cli::Main(argc, argv); }
