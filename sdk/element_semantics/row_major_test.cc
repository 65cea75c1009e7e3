// The row-major walk over an index space: its order, its end, and the
// element counts of scalars and of arrays with a zero-size dimension.
#include "sdk/element_semantics/row_major.h"

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

namespace phal::element_semantics {
namespace {

using Index = std::vector<int64_t>;

// Every index NextIndex visits from the all-zero index, that one included.
std::vector<Index> Walk(const std::vector<int64_t>& dims) {
  Index index(dims.size(), 0);
  std::vector<Index> visited;
  do {
    visited.push_back(index);
  } while (NextIndex(dims, index));
  return visited;
}

TEST(RowMajorTest, ElementCountOfAScalarIsOne) {
  EXPECT_EQ(ElementCount({}), 1);
}

TEST(RowMajorTest, ElementCountIsTheProductOfTheDimensions) {
  const std::vector<int64_t> dims = {2, 3, 4};
  EXPECT_EQ(ElementCount(dims), 24);
}

TEST(RowMajorTest, ElementCountWithAZeroSizeDimensionIsZero) {
  const std::vector<int64_t> leading = {0, 3}, middle = {2, 0, 3},
                             trailing = {5, 0};
  EXPECT_EQ(ElementCount(leading), 0);
  EXPECT_EQ(ElementCount(middle), 0);
  EXPECT_EQ(ElementCount(trailing), 0);
}

TEST(RowMajorTest, ScalarHasOneIndexAndNoNext) {
  EXPECT_EQ(Walk({}), (std::vector<Index>{{}}));
}

TEST(RowMajorTest, LastDimensionVariesFastest) {
  EXPECT_EQ(Walk({2, 3}), (std::vector<Index>{
                              {0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}}));
}

TEST(RowMajorTest, WalkVisitsElementCountIndices) {
  const std::vector<int64_t> dims = {3, 1, 4, 2};
  EXPECT_EQ(static_cast<int64_t>(Walk(dims).size()), ElementCount(dims));
}

TEST(RowMajorTest, UnitDimensionsHaveOnlyTheZeroIndex) {
  EXPECT_EQ(Walk({1, 1, 1}), (std::vector<Index>{{0, 0, 0}}));
}

TEST(RowMajorTest, AfterTheLastIndexTheIndexIsAllZeroAgain) {
  const std::vector<int64_t> dims = {2, 3};
  Index index = {1, 2};
  EXPECT_FALSE(NextIndex(dims, index));
  EXPECT_EQ(index, (Index{0, 0}));
}

TEST(RowMajorTest, SingleZeroSizeDimensionHasNoNext) {
  const std::vector<int64_t> dims = {0};
  Index index = {0};
  EXPECT_FALSE(NextIndex(dims, index));
}

}  // namespace
}  // namespace phal::element_semantics
