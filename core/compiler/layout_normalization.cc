#include "core/compiler/hlo_rewriter.h"
#include "core/compiler/passes.h"

namespace phal {
namespace {

void ClearLayouts(Shape* shape) {
  shape->set_minor_to_major({});
  for (Shape& element : shape->mutable_tuple_shapes()) ClearLayouts(&element);
}

class LayoutNormalization : public HloPass {
 public:
  const char* name() const override { return "normalize-layouts"; }
  StatusOr<std::unique_ptr<HloModule>> Run(const HloModule& module) override {
    auto row_major = [](const HloInstruction& source,
                        const std::vector<HloInstruction*>& operands,
                        const std::vector<HloComputation*>& called,
                        RewriteContext& context) -> StatusOr<HloInstruction*> {
      std::unique_ptr<HloInstruction> copy =
          CloneInstruction(source, operands, called, source.name());
      ClearLayouts(&copy->mutable_shape());
      return context.computation()->AddInstruction(std::move(copy));
    };
    return RewriteModule(module, row_major);
  }
};

}  // namespace

std::unique_ptr<HloPass> MakeLayoutNormalizationPass() {
  return std::make_unique<LayoutNormalization>();
}

}  // namespace phal
