#include "plugins/intel/intel_program_batcher.h"

#include <string_view>
#include <utility>

#include "plugins/intel/intel_program_cache.h"
#include "sdk/base/hash.h"
#include "sdk/emitters/source/source_emitter.h"

namespace phal::intel {
namespace {

constexpr std::string_view kPrefix = "phal_";

// `source` with every name the emitter gave (its helpers' and entry
// point's, all starting phal_) renamed to start phal<index>_ instead.
std::string Renamed(const std::string& source, size_t index) {
  const std::string prefix = "phal" + std::to_string(index) + "_";
  std::string text;
  text.reserve(source.size() + source.size() / 8);
  size_t at = 0;
  for (size_t found = source.find(kPrefix); found != std::string::npos;
       found = source.find(kPrefix, at)) {
    text.append(source, at, found - at);
    text += prefix;
    at = found + kPrefix.size();
  }
  text.append(source, at, std::string::npos);
  return text;
}

std::string EntryName(size_t index) {
  return Renamed(source_emitter::kEntryName, index);
}

}  // namespace

PendingKernel::~PendingKernel() {
  if (program != nullptr) Cl().ReleaseProgram(program);
}

ProgramBatcher::ProgramBatcher(cl_context context, cl_device_id device,
                               std::string options)
    : context_(context), device_(device), options_(std::move(options)) {}

ProgramBatcher::~ProgramBatcher() {
  for (auto& [key, built] : built_sources_) Cl().ReleaseProgram(built.program);
}

std::shared_ptr<PendingKernel> ProgramBatcher::Add(const std::string& source) {
  auto kernel = std::make_shared<PendingKernel>();
  kernel->source = source;
  kernel->key = Fnv1a(source);
  std::lock_guard lock(mutex_);
  if (auto found = built_sources_.find(kernel->key);
      found != built_sources_.end()) {
    Cl().RetainProgram(found->second.program);
    kernel->program = found->second.program;
    kernel->entry = found->second.entry;
    kernel->done = true;
    return kernel;
  }
  pending_.push_back(kernel);
  return kernel;
}

Status ProgramBatcher::Resolve(PendingKernel& kernel) {
  std::unique_lock lock(mutex_);
  while (!kernel.done) {
    if (building_) {
      built_.wait(lock);
      continue;
    }
    // This thread builds every kernel still waiting (the ones whose
    // emitters let go of them are dropped).
    std::vector<std::shared_ptr<PendingKernel>> batch;
    for (const std::weak_ptr<PendingKernel>& waiting : pending_) {
      if (std::shared_ptr<PendingKernel> alive = waiting.lock()) {
        if (!alive->done) batch.push_back(std::move(alive));
      }
    }
    pending_.clear();
    building_ = true;
    lock.unlock();
    BuildBatch(batch);
    lock.lock();
    building_ = false;
    built_.notify_all();
  }
  return kernel.status;
}

void ProgramBatcher::BuildBatch(
    const std::vector<std::shared_ptr<PendingKernel>>& batch) {
  // One entry point per distinct source.
  std::unordered_map<uint64_t, size_t> index_of;
  std::vector<const PendingKernel*> distinct;
  std::string text;
  for (const std::shared_ptr<PendingKernel>& kernel : batch) {
    if (index_of.emplace(kernel->key, distinct.size()).second) {
      text += Renamed(kernel->source, distinct.size());
      text += '\n';
      distinct.push_back(kernel.get());
    }
  }
  std::vector<cl_program> programs(distinct.size(), nullptr);
  std::vector<std::string> entries(distinct.size());
  std::vector<Status> statuses(distinct.size());
  StatusOr<cl_program> whole = Internal("not built as one program");
  if (distinct.size() > 1) {
    whole = CompileProgram(context_, device_, text, options_);
  }
  if (whole.ok()) {
    for (size_t i = 0; i < distinct.size(); ++i) {
      Cl().RetainProgram(*whole);
      programs[i] = *whole;
      entries[i] = EntryName(i);
    }
    Cl().ReleaseProgram(*whole);
  } else {
    // Kernel by kernel (one alone, or a batch that did not build), so that
    // each error is its kernel's own.
    for (size_t i = 0; i < distinct.size(); ++i) {
      StatusOr<cl_program> alone =
          CompileProgram(context_, device_, distinct[i]->source, options_);
      if (alone.ok()) {
        programs[i] = *alone;
        entries[i] = source_emitter::kEntryName;
      } else {
        statuses[i] = alone.status();
      }
    }
  }
  std::lock_guard lock(mutex_);
  for (size_t i = 0; i < distinct.size(); ++i) {
    if (programs[i] == nullptr) continue;
    if (built_sources_.emplace(distinct[i]->key, Built{programs[i], entries[i]})
            .second) {
      Cl().RetainProgram(programs[i]);
    }
  }
  for (const std::shared_ptr<PendingKernel>& kernel : batch) {
    const size_t i = index_of.at(kernel->key);
    kernel->status = statuses[i];
    kernel->entry = entries[i];
    if (programs[i] != nullptr) {
      Cl().RetainProgram(programs[i]);
      kernel->program = programs[i];
    }
    kernel->done = true;
  }
  for (cl_program program : programs) {
    if (program != nullptr) Cl().ReleaseProgram(program);
  }
}

}  // namespace phal::intel
