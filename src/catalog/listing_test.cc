#include "catalog/listing.h"

#include <algorithm>

#include <gtest/gtest.h>

namespace railyard {
namespace {

// One line and one row per catalog entry, each row naming its source: a listing that drops an entry
// or its provenance would let a planner's choice go unexplained.
TEST(CatalogListing, OneLineAndOneSourcedRowPerEntry) {
  const Catalog& c = Catalog::Builtin();
  struct Case {
    CatalogListing listing;
    size_t entries;
    const char* key;
  };
  for (const Case& k : {Case{ListSwitches(c), c.switches().size(), "model"}, Case{ListNics(c), c.nics().size(), "opn"},
                        Case{ListCables(c), c.cables().size(), "opn"}}) {
    ASSERT_GT(k.entries, 0u);
    EXPECT_EQ(k.listing.rows.size(), k.entries);
    EXPECT_EQ(static_cast<size_t>(std::count(k.listing.table.begin(), k.listing.table.end(), '\n')), k.entries + 1);
    for (const auto& row : k.listing.rows) {
      EXPECT_FALSE(row.at(k.key).get<std::string>().empty());
      EXPECT_TRUE(row.contains("source") && row.contains("confidence") && row.contains("origin")) << row.dump();
    }
  }
  EXPECT_NE(ListSwitches(c).table.find("QM9700"), std::string::npos);
  EXPECT_NE(ListNics(c).table.find("MCX75310AAS-NEAT"), std::string::npos);
}

}  // namespace
}  // namespace railyard
