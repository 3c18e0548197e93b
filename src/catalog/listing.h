// `railyard catalog`: what the planner can choose from, as a table for people and JSON rows for tools,
// each row with its source, confidence and origin (built-in or the site catalog's).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"

namespace railyard {

struct CatalogListing {
  std::string table;    // a header line, then one line per row
  nlohmann::json rows;  // an array, one object per row
};

CatalogListing ListSwitches(const Catalog& catalog);
CatalogListing ListNics(const Catalog& catalog);
CatalogListing ListCables(const Catalog& catalog);

}  // namespace railyard
