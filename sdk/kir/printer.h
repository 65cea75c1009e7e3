// The stable text dump of the kernel IR, documented in docs/kernel-ir.md.
// Golden tests pin it, PHAL_DUMP writes it, and plugin authors read it in logs,
// so its grammar changes only together with docs/kernel-ir.md. It lives in
// the SDK so a plugin can write the KIR it was handed (the template's
// kernel dump) as the core does.
#ifndef POLYHAL_SDK_KIR_PRINTER_H_
#define POLYHAL_SDK_KIR_PRINTER_H_

#include <string>

#include "polyhal/kernel.h"
#include "sdk/kir/facts.h"

namespace phal {

// Ops and kernel kinds are spelled by KirOpName and KernelKindName
// (sdk/kir/facts.h).
// The value of a CONSTANT node as the dump prints it.
std::string KirConstantToText(const phal_kir_node_t& node);
// The whole kernel, one line per buffer, parameter and node.
std::string KernelToText(const phal_kernel_desc_t& kernel);

}  // namespace phal

#endif  // POLYHAL_SDK_KIR_PRINTER_H_
