// The conformance corpus: every case the suite can run, generated from the
// compact specifications in the *_cases.cc files of this directory.
#ifndef POLYHAL_CONFORMANCE_CASES_CORPUS_H_
#define POLYHAL_CONFORMANCE_CASES_CORPUS_H_

#include <string>
#include <vector>

#include "conformance/cases/case.h"
#include "sdk/base/status.h"

namespace phal::conformance {

// Elementwise ops, compare, select, clamp, convert, bitcast-convert and
// reduce-precision over every element type they take.
std::vector<Case> ElementwiseCases();
// broadcast, reshape, transpose, slice, concatenate, pad, reverse, iota,
// copy, dynamic-slice, dynamic-update-slice, gather, scatter.
std::vector<Case> DataMovementCases();
// reduce, reduce-window, dot, convolution, batch norm, select-and-scatter.
std::vector<Case> ReductionCases();
// sort, topk, while, conditional, call, map.
std::vector<Case> ControlFlowCases();
// fft: FFT, IFFT, RFFT and IRFFT over 1-3 dimensions, c64 and c128.
std::vector<Case> FftCases();
std::vector<Case> LinearAlgebraCases();
// Whole models: an MLP, a transformer block, a conv net, long while loops,
// modules with tuple outputs.
std::vector<Case> ModelCases();
// Quantized programs (StableHLO !quant.uniform lowered to HLO): quantize
// per tensor and per axis with ties and saturation, dequantize, requantize,
// int8 dot and convolution with integer accumulation, add, a quantized
// sum and max pool, data movement.
std::vector<Case> QuantizedCases();
// CHLO programs lowered to HLO: chlo.ragged_dot (ragged rows, batched rows,
// ragged contraction, ragged batch) and the real sinh, cosh, asinh, acosh
// and atanh as CHLO expands them.
std::vector<Case> ChloCases();
// The API behaviours every plugin must show.
std::vector<Case> ApiCases();
// Programs on several devices (tier 3): every collective over element
// types, group forms and 2, 4 and 8 devices, against the reference's
// EvaluateSpmd, and one group spanning two plugins.
std::vector<Case> CollectiveCases();
// Single-device cases of one op each as global programs split over 2 and 4
// devices by the SPMD partitioner (cases of several devices).
std::vector<Case> ShardedCases();
// One case per .mlir file under `directory` (recursively, in path order).
StatusOr<std::vector<Case>> StableHloCorpusCases(const std::string& directory);

// Every built-in case, API cases first; ids are unique.
std::vector<Case> BuiltInCases();

}  // namespace phal::conformance

#endif  // POLYHAL_CONFORMANCE_CASES_CORPUS_H_
