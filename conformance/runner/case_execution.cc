#include "conformance/runner/case_execution.h"

#include <chrono>
#include <fstream>
#include <set>
#include <sstream>

#include "conformance/runner/device_execution.h"
#include "conformance/runner/module_types.h"
#include "core/frontend/check_evaluator.h"
#include "core/frontend/hlo_parser.h"
#include "core/frontend/stablehlo_parser.h"
#include "core/hlo/printer.h"
#include "core/reference/interpreter.h"

namespace phal::conformance {
namespace {

constexpr int64_t kSummaryValues = 8;

const char* KindName(CaseKind kind) {
  switch (kind) {
    case CaseKind::kNumeric:
      return "numeric";
    case CaseKind::kApi:
      return "api";
    case CaseKind::kCorpus:
      return "corpus";
  }
  return "numeric";
}

std::string SummarizeInput(const Literal& literal) {
  std::string text = literal.shape().ToString() + " {";
  const int64_t count = std::min(literal.ElementCount(), kSummaryValues);
  for (int64_t i = 0; i < count; ++i) {
    text += (i == 0 ? "" : ", ") + FormatElement(literal, i);
  }
  return text + (literal.ElementCount() > count ? ", ...}" : "}");
}

void Flatten(Literal literal, std::vector<Literal>* leaves) {
  if (!literal.IsTuple()) {
    leaves->push_back(std::move(literal));
    return;
  }
  for (Literal& element : literal.mutable_tuple_elements()) {
    Flatten(std::move(element), leaves);
  }
}

// A failure of the device run, or NotSupported when the device refused to
// compile for want of a kernel kind or op it does not implement.
void ClassifyDeviceError(const DeviceRunError& error, CaseResult* result) {
  result->message = std::string(DeviceStageName(error.stage)) + ": " +
                    error.status.ToString();
  const bool refused = error.stage == DeviceStage::kCompile &&
                       error.status.code() == PHAL_UNIMPLEMENTED &&
                       error.status.message().find("cannot run this program") !=
                           std::string::npos;
  result->status = refused ? CaseStatus::kNotSupported : CaseStatus::kFail;
}

void AttachInputsAtMismatches(const std::vector<Literal>& arguments,
                              const std::vector<Literal>& expected,
                              CaseResult* result) {
  for (ElementMismatch& mismatch : result->worst) {
    const Shape& shape = expected[static_cast<size_t>(mismatch.output)].shape();
    for (const Literal& argument : arguments) {
      mismatch.inputs.push_back(argument.shape().dims() == shape.dims() &&
                                        !argument.IsTuple()
                                    ? FormatElement(argument, mismatch.index)
                                    : "");
    }
  }
}

void RunNumeric(const Case& c, const Target& target, int device_index,
                CaseResult* result) {
  StatusOr<std::unique_ptr<HloModule>> module =
      ParseHloText(c.module_text, c.id);
  if (!module.ok()) {
    result->status = CaseStatus::kFail;
    result->message = "the suite's module does not parse (a suite bug): " +
                      module.status().ToString();
    return;
  }
  const HloComputation& entry = *(*module)->entry_computation();
  std::vector<Literal> arguments;
  for (int64_t i = 0; i < entry.num_parameters(); ++i) {
    const InputSpec spec = static_cast<size_t>(i) < c.inputs.size()
                               ? c.inputs[static_cast<size_t>(i)]
                               : RandomValues();
    arguments.push_back(MakeInput(entry.parameter_instruction(i)->shape(), spec,
                                  c.seed + static_cast<uint64_t>(i)));
    result->inputs.push_back(SummarizeInput(arguments.back()));
  }
  const std::string missing =
      MissingTypes(ModuleTypes(**module),
                   DeviceElementTypes(target.description(), device_index));
  if (!missing.empty()) {
    result->status = CaseStatus::kNotSupported;
    result->dtype_unsupported = true;
    result->message =
        "the device does not support element types [" + missing + "]";
    return;
  }
  StatusOr<Literal> reference = Evaluate(**module, arguments);
  if (!reference.ok()) {
    result->status = CaseStatus::kFail;
    result->message = "the reference cannot evaluate the case (a suite bug): " +
                      reference.status().ToString();
    return;
  }
  std::vector<Literal> expected;
  Flatten(std::move(*reference), &expected);
  DeviceRun run =
      RunOnDevice(target.devices()[static_cast<size_t>(device_index)],
                  c.module_text, c.id, arguments);
  if (!run.ok) {
    ClassifyDeviceError(run.error, result);
    return;
  }
  std::vector<const Literal*> expected_leaves;
  std::vector<const Literal*> actual_leaves;
  for (const Literal& leaf : expected) expected_leaves.push_back(&leaf);
  for (const Literal& leaf : run.results) actual_leaves.push_back(&leaf);
  Comparison comparison =
      CompareResults(expected_leaves, actual_leaves, c.tolerance);
  result->bound = comparison.bound;
  result->error = comparison.error;
  result->worst = std::move(comparison.worst);
  AttachInputsAtMismatches(arguments, expected, result);
  if (comparison.passed) return;
  result->status = CaseStatus::kFail;
  result->message =
      !comparison.message.empty()
          ? comparison.message
          : "result differs from the reference beyond " + comparison.bound;
}

void RunApi(const Case& c, const Target& target, int device_index,
            CaseResult* result) {
  ElementType type = PHAL_ELEMENT_TYPE_INVALID;
  if (ParseElementTypeName(c.dtype, &type) &&
      (DeviceElementTypes(target.description(), device_index) &
       PHAL_ELEMENT_TYPE_BIT(type)) == 0) {
    result->status = CaseStatus::kNotSupported;
    result->dtype_unsupported = true;
    result->message = "the device does not support element type " + c.dtype;
    return;
  }
  if (c.devices > static_cast<int>(target.devices().size())) {
    result->status = CaseStatus::kNotSupported;
    result->devices_unsupported = true;
    result->message = "the case runs on " + std::to_string(c.devices) +
                      " devices; the plugin offers " +
                      std::to_string(target.devices().size()) +
                      " (PHAL_VIRTUAL_DEVICES=" + std::to_string(c.devices) +
                      " gives a plugin that can offer them that many)";
    return;
  }
  ApiContext context;
  context.client = target.client();
  context.client_options = target.ClientOptions();
  context.device = target.devices()[static_cast<size_t>(device_index)];
  context.plugin_devices = target.devices();
  std::string unsupported;
  context.devices_unsupported = &unsupported;
  result->message = c.api_check(context);
  if (!result->message.empty()) {
    result->status = CaseStatus::kFail;
  } else if (!unsupported.empty()) {
    result->status = CaseStatus::kNotSupported;
    result->devices_unsupported = true;
    result->message = unsupported;
  }
}

// Every part of a StableHLO file with checks runs on the device; the checks
// judge the outputs. A file whose checks fail on the reference too is
// reported NotSupported rather than blamed on the plugin.
Status RunCorpusPart(const SourceText& source, const StableHloPart& part,
                     phal_device_t* device, bool on_reference,
                     std::string* failures) {
  PHAL_ASSIGN_OR_RETURN(StableHloModule program,
                        ParseStableHloPart(source, part));
  const StableHloFunction* entry = program.EntryFunction();
  if (entry == nullptr) return InvalidArgument("no entry function");
  std::vector<Literal> arguments;
  const HloComputation& computation = *entry->computation;
  for (int64_t i = 0; i < computation.num_parameters(); ++i) {
    arguments.push_back(MakeInput(computation.parameter_instruction(i)->shape(),
                                  RandomValues(), static_cast<uint64_t>(i)));
  }
  Literal result;
  if (on_reference) {
    PHAL_ASSIGN_OR_RETURN(result, Evaluate(*program.module, arguments));
  } else {
    DeviceRun run = RunOnDevice(device, HloModuleToText(*program.module),
                                source.file_name(), arguments);
    if (!run.ok) {
      return Status(run.error.status.code(),
                    std::string(DeviceStageName(run.error.stage)) + ": " +
                        run.error.status.message());
    }
    result = run.results.size() == 1 &&
                     !computation.root_instruction()->shape().IsTuple()
                 ? std::move(run.results[0])
                 : Literal::Tuple(std::move(run.results));
  }
  std::vector<Literal> outputs =
      SplitFunctionOutputs(*entry, std::move(result));
  for (const CheckResult& check : EvaluateChecks(*entry, outputs)) {
    if (!check.passed && !check.skipped) {
      *failures += (failures->empty() ? "" : "; ") + DescribeCheckResult(check);
    }
  }
  return OkStatus();
}

// What one part did on the device: "" when its checks passed.
std::string RunPartOn(const SourceText& source, const StableHloPart& part,
                      phal_device_t* device, bool on_reference) {
  std::string failures;
  const Status status =
      RunCorpusPart(source, part, device, on_reference, &failures);
  if (!status.ok()) {
    failures += (failures.empty() ? "" : "; ") + status.ToString();
  }
  return failures;
}

// Each part runs on the device; a part that fails there runs on the
// reference too. A part failing only on the device fails the file; a part
// failing on both is not the plugin's fault and makes the file
// NotSupported, unless another part failed.
void RunCorpus(const Case& c, const Target& target, int device_index,
               CaseResult* result) {
  std::ifstream file(c.corpus_path, std::ios::binary);
  std::ostringstream contents;
  contents << file.rdbuf();
  if (!file) {
    result->status = CaseStatus::kFail;
    result->message = c.corpus_path + ": cannot read the file";
    return;
  }
  result->bound = "the file's checks";
  const std::string text = contents.str();
  const SourceText source(text, c.corpus_path);
  phal_device_t* device = target.devices()[static_cast<size_t>(device_index)];
  std::string failures;
  std::string reference_failures;
  for (const StableHloPart& part : SplitStableHloParts(text)) {
    const std::string on_device = RunPartOn(source, part, device, false);
    if (on_device.empty()) continue;
    std::string& list = RunPartOn(source, part, nullptr, true).empty()
                            ? failures
                            : reference_failures;
    list += (list.empty() ? "" : "; ") + on_device;
  }
  if (!failures.empty()) {
    result->status = CaseStatus::kFail;
    result->message = failures;
  } else if (!reference_failures.empty()) {
    result->status = CaseStatus::kNotSupported;
    result->message =
        "parts of this file fail on the reference interpreter too, so the "
        "suite does not judge them: " +
        reference_failures;
  }
}

}  // namespace

CaseResult PendingResult(const Case& c, int device_index) {
  CaseResult result;
  result.id = c.id;
  result.op = c.op;
  result.dtype = c.dtype;
  result.tier = c.tier;
  result.kind = KindName(c.kind);
  result.device = device_index;
  return result;
}

CaseResult RunCase(const Case& c, const Target& target, int device_index) {
  CaseResult result = PendingResult(c, device_index);
  const auto start = std::chrono::steady_clock::now();
  switch (c.kind) {
    case CaseKind::kNumeric:
      RunNumeric(c, target, device_index, &result);
      break;
    case CaseKind::kApi:
      RunApi(c, target, device_index, &result);
      break;
    case CaseKind::kCorpus:
      RunCorpus(c, target, device_index, &result);
      break;
  }
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return result;
}

}  // namespace phal::conformance
